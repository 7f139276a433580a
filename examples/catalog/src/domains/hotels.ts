import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, daysBetween, findCity } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const tags = ['hotels', 'travel'] as const;

const hotelId = () => z.string().min(1).max(100).describe('Hotel id from a search, e.g. "htl_lis_0042"');
const bookingId = () => z.string().min(1).max(40).describe('Hotel booking id, e.g. "HB-48213"');
const hotelNames = [
  'Grand Palace',
  'Casa do Rio',
  'The Linden',
  'Hotel Miramar',
  'Atelier Suites',
  'Harbour View Inn',
  'Villa Aurora',
];
const nightsOf = (checkIn: string, checkOut: string) => Math.max(1, daysBetween(checkIn, checkOut));
const hotelCode = (random: SeededRandom, city: string) =>
  `htl_${findCity(city).airport.toLowerCase()}_${String(random.int(1, 9999)).padStart(4, '0')}`;

export const hotelsTools = [
  defineTool({
    name: 'search_hotels',
    description:
      'Search hotels in a city for a stay, with the nightly price, rating and distance to the centre.',
    tags: [...tags, 'search'],
    input: z.object({
      city: fields.city(),
      checkIn: fields.date('Arrival day (YYYY-MM-DD)'),
      checkOut: fields.date('Departure day (YYYY-MM-DD)'),
      guests: z.number().int().min(1).max(16).default(2).describe('Number of guests'),
      maxPricePerNight: z.number().positive().max(100000).optional().describe('Highest nightly price in EUR'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'search_hotels');
      const ceiling = input.maxPricePerNight ?? 400;
      return {
        city: findCity(input.city).name,
        nights: nightsOf(input.checkIn, input.checkOut),
        hotels: random.sample(hotelNames, 4).map((name) => ({
          hotelId: hotelCode(random, input.city),
          name,
          stars: random.int(3, 5),
          rating: random.float(7.2, 9.6, 1),
          pricePerNight: Math.min(ceiling, random.int(70, 400)),
          currency: 'EUR',
          distanceToCentreKm: random.float(0.2, 6, 1),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_hotel_details',
    description: 'Get the details of a hotel: address, amenities, check-in times and policies.',
    tags: [...tags, 'details'],
    input: z.object({ hotelId: hotelId() }),
    execute: (input) => {
      const random = createRandom(input, 'get_hotel_details');
      return {
        hotelId: input.hotelId,
        name: random.pick(hotelNames),
        address: `${random.int(1, 200)} ${random.pick(['Avenida da Liberdade', 'Via del Corso', 'Rue de Rivoli', 'Friedrichstraße'])}`,
        amenities: random.sample(['wifi', 'breakfast', 'pool', 'gym', 'parking', 'spa', 'pets allowed'], 4),
        checkInFrom: '15:00',
        checkOutUntil: '11:00',
        freeCancellationHours: random.pick([24, 48, 72]),
      };
    },
  }),
  defineTool({
    name: 'check_hotel_availability',
    description: 'Check which room types of a hotel are free for given dates, with their prices.',
    tags: [...tags, 'availability'],
    input: z.object({
      hotelId: hotelId(),
      checkIn: fields.date('Arrival day (YYYY-MM-DD)'),
      checkOut: fields.date('Departure day (YYYY-MM-DD)'),
      guests: z.number().int().min(1).max(16).default(2).describe('Number of guests'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'check_hotel_availability');
      const nights = nightsOf(input.checkIn, input.checkOut);
      return {
        hotelId: input.hotelId,
        nights,
        rooms: ['Standard double', 'Superior double', 'Junior suite'].map((type) => {
          const nightly = random.int(80, 450);
          return {
            type,
            available: random.bool(0.7),
            pricePerNight: nightly,
            total: nightly * nights,
            currency: 'EUR',
          };
        }),
      };
    },
  }),
  defineTool({
    name: 'book_hotel_room',
    description: 'Book a room in a hotel for given dates and a guest; returns the confirmation.',
    tags: [...tags, 'booking'],
    input: z.object({
      hotelId: hotelId(),
      roomType: z
        .string()
        .min(1)
        .max(100)
        .default('Standard double')
        .describe('Room type from the availability check'),
      checkIn: fields.date('Arrival day (YYYY-MM-DD)'),
      checkOut: fields.date('Departure day (YYYY-MM-DD)'),
      guestName: z.string().min(1).max(200).describe('Name of the main guest'),
      guests: z.number().int().min(1).max(16).default(2).describe('Number of guests'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'book_hotel_room');
      const nights = nightsOf(input.checkIn, input.checkOut);
      return {
        bookingId: random.id('HB-', { digits: true }),
        hotelId: input.hotelId,
        roomType: input.roomType,
        checkIn: input.checkIn,
        checkOut: input.checkOut,
        nights,
        total: random.int(90, 300) * nights,
        currency: 'EUR',
        status: 'confirmed',
      };
    },
  }),
  defineTool({
    name: 'cancel_hotel_booking',
    description: 'Cancel a hotel booking; says whether the cancellation is free or charged.',
    tags: [...tags, 'booking'],
    input: z.object({
      bookingId: bookingId(),
      reason: z.string().max(500).optional().describe('Reason for cancelling'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'cancel_hotel_booking');
      const fee = random.pick([0, 0, 0, 60, 120]);
      return { bookingId: input.bookingId, status: 'cancelled', cancellationFee: fee, currency: 'EUR' };
    },
  }),
  defineTool({
    name: 'modify_hotel_booking',
    description: 'Change the dates or number of guests of a hotel booking.',
    tags: [...tags, 'booking'],
    input: z.object({
      bookingId: bookingId(),
      checkIn: fields.date('New arrival day (YYYY-MM-DD)').optional(),
      checkOut: fields.date('New departure day (YYYY-MM-DD)').optional(),
      guests: z.number().int().min(1).max(16).optional().describe('New number of guests'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'modify_hotel_booking');
      return {
        bookingId: input.bookingId,
        status: 'confirmed',
        priceDifference: random.int(-80, 150),
        currency: 'EUR',
      };
    },
  }),
  defineTool({
    name: 'get_hotel_reviews',
    description: 'Read recent guest reviews of a hotel with scores and short comments.',
    tags: [...tags, 'reviews'],
    input: z.object({ hotelId: hotelId(), limit: fields.limit(50, 5) }),
    execute: (input) => {
      const random = createRandom(input, 'get_hotel_reviews');
      return {
        averageScore: random.float(7, 9.7, 1),
        reviews: Array.from({ length: Math.min(input.limit, 3) }, () => ({
          score: random.int(6, 10),
          comment: random.pick([
            'Great location, small rooms.',
            'Friendly staff and a superb breakfast.',
            'Noisy at night but very clean.',
          ]),
          date: addDays(catalogToday, -random.int(1, 120)),
        })),
      };
    },
  }),
  defineTool({
    name: 'list_hotel_bookings',
    description: 'List your upcoming and past hotel bookings.',
    tags: [...tags, 'booking'],
    input: z.object({
      upcomingOnly: z.boolean().default(true).describe('Only stays that have not started yet'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_hotel_bookings');
      return {
        bookings: Array.from({ length: 2 }, () => {
          const checkIn = addDays(catalogToday, input.upcomingOnly ? random.int(3, 90) : random.int(-90, 90));
          return {
            bookingId: random.id('HB-', { digits: true }),
            hotel: random.pick(hotelNames),
            checkIn,
            checkOut: addDays(checkIn, random.int(1, 6)),
          };
        }),
      };
    },
  }),
];
