import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, cities, findCity } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const tags = ['flights', 'travel'] as const;

const place = (description: string) => z.string().min(1).max(100).describe(description);
const bookingReference = () => z.string().min(1).max(20).describe('Booking reference (PNR), e.g. "K7Q2ZP"');
const flightNumber = () => z.string().min(2).max(10).describe('Flight number, e.g. "TP1234"');
const cabin = () =>
  z.enum(['economy', 'premium_economy', 'business', 'first']).default('economy').describe('Cabin class');
const airlines = [
  ['TP', 'TAP Air Portugal'],
  ['AZ', 'ITA Airways'],
  ['LH', 'Lufthansa'],
  ['AF', 'Air France'],
  ['BA', 'British Airways'],
  ['IB', 'Iberia'],
  ['KL', 'KLM'],
] as const;
/** The IATA code for a city name or an airport code. */
const airportOf = (value: string) => (/^[A-Z]{3}$/.test(value) ? value : findCity(value).airport);
const pnr = (random: SeededRandom) => random.id('', { digits: false, length: 6 }).toUpperCase();
const clock = (random: SeededRandom) =>
  `${String(random.int(6, 21)).padStart(2, '0')}:${random.pick(['00', '15', '30', '45'])}`;

export const flightsTools = [
  defineTool({
    name: 'search_flights',
    description: 'Search flights between two cities or airports on a date, with prices per cabin class.',
    tags: [...tags, 'search'],
    input: z.object({
      origin: place('Departure city or IATA airport code, e.g. "Lisbon" or "LIS"'),
      destination: place('Arrival city or IATA airport code'),
      departureDate: fields.date('Departure day (YYYY-MM-DD)'),
      returnDate: fields.date('Return day for a round trip (YYYY-MM-DD)').optional(),
      passengers: z.number().int().min(1).max(9).default(1).describe('Number of adult passengers'),
      cabin: cabin(),
    }),
    execute: (input) => {
      const random = createRandom(input, 'search_flights');
      const multiplier = { economy: 1, premium_economy: 1.6, business: 3.2, first: 5 }[input.cabin];
      return {
        origin: airportOf(input.origin),
        destination: airportOf(input.destination),
        offers: Array.from({ length: 3 }, () => {
          const [code, airline] = random.pick(airlines);
          return {
            flightNumber: `${code}${random.int(100, 2999)}`,
            airline,
            departure: `${input.departureDate}T${clock(random)}`,
            durationMinutes: random.int(70, 780),
            stops: random.pick([0, 0, 1]),
            pricePerPassenger: Math.round(random.int(60, 600) * multiplier),
            currency: 'EUR',
          };
        }),
      };
    },
  }),
  defineTool({
    name: 'get_flight_status',
    description: 'Get the live status of a flight on a date: scheduled and estimated times, gate and delay.',
    tags: [...tags, 'status'],
    input: z.object({ flightNumber: flightNumber(), date: fields.date('Day of the flight (YYYY-MM-DD)') }),
    execute: (input) => {
      const random = createRandom(input, 'get_flight_status');
      const delay = random.pick([0, 0, 0, 15, 40, 95]);
      return {
        flightNumber: input.flightNumber.toUpperCase(),
        date: input.date,
        status: delay === 0 ? 'on_time' : 'delayed',
        delayMinutes: delay,
        departureGate: `${random.pick(['A', 'B', 'C'])}${random.int(1, 40)}`,
        from: random.pick(cities).airport,
        to: random.pick(cities).airport,
      };
    },
  }),
  defineTool({
    name: 'book_flight',
    description: 'Book a flight offer for passengers; returns the booking reference and the total price.',
    tags: [...tags, 'booking'],
    input: z.object({
      flightNumber: flightNumber(),
      departureDate: fields.date('Departure day (YYYY-MM-DD)'),
      passengerNames: z
        .array(z.string().min(1).max(100))
        .min(1)
        .max(9)
        .describe('Full names as on the passports'),
      cabin: cabin(),
      contactEmail: fields.email('Where the e-ticket is sent'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'book_flight');
      return {
        bookingReference: pnr(random),
        flightNumber: input.flightNumber.toUpperCase(),
        departureDate: input.departureDate,
        passengers: input.passengerNames.length,
        totalPrice: random.int(90, 900) * input.passengerNames.length,
        currency: 'EUR',
        status: 'confirmed',
      };
    },
  }),
  defineTool({
    name: 'get_flight_booking',
    description: 'Get a flight booking by reference: flights, passengers, seats and payment status.',
    tags: [...tags, 'booking'],
    input: z.object({
      bookingReference: bookingReference(),
      lastName: z.string().min(1).max(100).describe("A passenger's last name"),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_flight_booking');
      const [code] = random.pick(airlines);
      return {
        bookingReference: input.bookingReference.toUpperCase(),
        status: 'confirmed',
        flights: [
          {
            flightNumber: `${code}${random.int(100, 2999)}`,
            date: addDays(catalogToday, random.int(3, 60)),
            seat: `${random.int(3, 38)}${random.pick(['A', 'C', 'D', 'F'])}`,
          },
        ],
        paid: true,
      };
    },
  }),
  defineTool({
    name: 'cancel_flight_booking',
    description: 'Cancel a flight booking and request the refund the fare allows.',
    tags: [...tags, 'booking'],
    input: z.object({
      bookingReference: bookingReference(),
      lastName: z.string().min(1).max(100).describe("A passenger's last name"),
    }),
    execute: (input) => {
      const random = createRandom(input, 'cancel_flight_booking');
      return {
        bookingReference: input.bookingReference.toUpperCase(),
        status: 'cancelled',
        refundAmount: random.int(0, 400),
        currency: 'EUR',
      };
    },
  }),
  defineTool({
    name: 'check_in_flight',
    description: 'Check in online for a booked flight and get the boarding passes.',
    tags: [...tags, 'check-in'],
    input: z.object({
      bookingReference: bookingReference(),
      lastName: z.string().min(1).max(100).describe("A passenger's last name"),
    }),
    execute: (input) => {
      const random = createRandom(input, 'check_in_flight');
      return {
        bookingReference: input.bookingReference.toUpperCase(),
        checkedIn: true,
        boardingPasses: [
          {
            seat: `${random.int(3, 38)}${random.pick(['A', 'B', 'C', 'D', 'E', 'F'])}`,
            boardingGroup: random.int(1, 5),
            url: `https://checkin.example/bp/${random.id('')}`,
          },
        ],
      };
    },
  }),
  defineTool({
    name: 'get_seat_map',
    description: 'Get the seat map of a flight: which seats are free, extra legroom and prices.',
    tags: [...tags, 'seats'],
    input: z.object({ flightNumber: flightNumber(), date: fields.date('Day of the flight (YYYY-MM-DD)') }),
    execute: (input) => {
      const random = createRandom(input, 'get_seat_map');
      return {
        flightNumber: input.flightNumber.toUpperCase(),
        freeSeats: random.int(4, 80),
        sample: ['12A', '12F', '14C', '21D', '30A'].map((seat) => ({
          seat,
          free: random.bool(0.6),
          extraLegroom: seat.startsWith('12'),
          price: random.pick([0, 15, 25, 45]),
        })),
      };
    },
  }),
  defineTool({
    name: 'select_flight_seat',
    description: 'Choose a seat for a passenger on a booked flight.',
    tags: [...tags, 'seats', 'booking'],
    input: z.object({
      bookingReference: bookingReference(),
      seat: z
        .string()
        .regex(/^[0-9]{1,2}[A-K]$/)
        .describe('Seat, e.g. "14C"'),
    }),
    execute: (input) => ({
      bookingReference: input.bookingReference.toUpperCase(),
      seat: input.seat,
      confirmed: true,
    }),
  }),
  defineTool({
    name: 'search_airports',
    description: 'Find airports by city or name, with their IATA codes.',
    tags: [...tags, 'airports'],
    input: z.object({ query: fields.text('City or airport name, e.g. "Rome"', 100) }),
    execute: (input) => {
      const lower = input.query.toLowerCase();
      const matches = cities.filter(
        (city) => lower.includes(city.name.toLowerCase()) || city.name.toLowerCase().includes(lower),
      );
      const found = matches.length > 0 ? matches : [findCity(input.query)];
      return {
        airports: found
          .slice(0, 5)
          .map((city) => ({ code: city.airport, city: city.name, country: city.country })),
      };
    },
  }),
  defineTool({
    name: 'track_flight_price',
    description: 'Watch the price of a route on a date and get an alert when it drops below a target.',
    tags: [...tags, 'alerts', 'prices'],
    input: z.object({
      origin: place('Departure city or IATA code'),
      destination: place('Arrival city or IATA code'),
      departureDate: fields.date('Departure day (YYYY-MM-DD)'),
      targetPrice: z
        .number()
        .positive()
        .max(100000)
        .optional()
        .describe('Alert when the price falls below this (EUR)'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'track_flight_price');
      const current = random.int(80, 700);
      return {
        alertId: random.id('alrt_'),
        route: `${airportOf(input.origin)}-${airportOf(input.destination)}`,
        departureDate: input.departureDate,
        currentLowestPrice: current,
        targetPrice: input.targetPrice ?? Math.round(current * 0.85),
      };
    },
  }),
];
