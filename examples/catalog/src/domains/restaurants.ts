import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, findCity } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const tags = ['restaurants', 'travel', 'dining'] as const;

const restaurantId = () =>
  z.string().min(1).max(100).describe('Restaurant id from a search, e.g. "rst_fco_0042"');
const reservationId = () => z.string().min(1).max(40).describe('Reservation id, e.g. "RB-48213"');
const partySize = () => z.number().int().min(1).max(20).describe('Number of people');
const names = [
  'Trattoria da Enzo',
  'Taberna Sal Grosso',
  'Le Petit Zinc',
  'Osteria Bonelli',
  'Sushi Kanda',
  'Casa Mono',
  'The Green Table',
];
const cuisines = ['italian', 'portuguese', 'french', 'japanese', 'spanish', 'vegetarian', 'seafood'];
const code = (random: SeededRandom, city: string) =>
  `rst_${findCity(city).airport.toLowerCase()}_${String(random.int(1, 9999)).padStart(4, '0')}`;
const shift = (time: string, minutes: number) => {
  const [hours = 0, mins = 0] = time.split(':').map(Number);
  const total = Math.max(0, Math.min(23 * 60 + 45, hours * 60 + mins + minutes));
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
};

export const restaurantsTools = [
  defineTool({
    name: 'search_restaurants',
    description: 'Search restaurants in a city by cuisine, price level and rating.',
    tags: [...tags, 'search'],
    input: z.object({
      city: fields.city(),
      cuisine: z.string().max(50).optional().describe('Cuisine, e.g. "italian"'),
      priceLevel: z.number().int().min(1).max(4).optional().describe('1 (cheap) to 4 (very expensive)'),
      limit: fields.limit(50, 5),
    }),
    execute: (input) => {
      const random = createRandom(input, 'search_restaurants');
      return {
        city: findCity(input.city).name,
        restaurants: random.sample(names, Math.min(input.limit, 4)).map((name) => ({
          restaurantId: code(random, input.city),
          name,
          cuisine: input.cuisine ?? random.pick(cuisines),
          priceLevel: input.priceLevel ?? random.int(1, 4),
          rating: random.float(3.8, 4.9, 1),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_restaurant_details',
    description: 'Get a restaurant’s address, opening hours, phone number and dietary options.',
    tags: [...tags, 'details'],
    input: z.object({ restaurantId: restaurantId() }),
    execute: (input) => {
      const random = createRandom(input, 'get_restaurant_details');
      return {
        restaurantId: input.restaurantId,
        name: random.pick(names),
        address: `${random.pick(['Via Margutta', 'Rua da Rosa', 'Rue Oberkampf'])} ${random.int(1, 120)}`,
        phone: `+39 06 ${random.int(1000, 9999)} ${random.int(1000, 9999)}`,
        openingHours: { lunch: '12:30-15:00', dinner: '19:00-23:30' },
        dietaryOptions: random.sample(['vegetarian', 'vegan', 'gluten-free', 'halal'], 2),
      };
    },
  }),
  defineTool({
    name: 'check_table_availability',
    description: 'Check which times a restaurant has a free table for a party on a date.',
    tags: [...tags, 'availability', 'reservations'],
    input: z.object({
      restaurantId: restaurantId(),
      date: fields.date('Day (YYYY-MM-DD)'),
      time: fields.time('Preferred time (HH:MM)'),
      partySize: partySize(),
    }),
    execute: (input) => {
      const random = createRandom(input, 'check_table_availability');
      return {
        restaurantId: input.restaurantId,
        date: input.date,
        partySize: input.partySize,
        availableTimes: [-30, 0, 30, 60]
          .filter(() => random.bool(0.7))
          .map((minutes) => shift(input.time, minutes)),
      };
    },
  }),
  defineTool({
    name: 'book_restaurant_table',
    description:
      'Book a table at a restaurant in a city for a party on a date and time; returns the confirmation.',
    tags: [...tags, 'booking', 'reservations'],
    input: z.object({
      city: fields.city('City of the restaurant, e.g. "Rome"'),
      restaurantName: z
        .string()
        .max(200)
        .optional()
        .describe('Restaurant name; the best-rated free one when omitted'),
      date: fields.date('Day of the reservation (YYYY-MM-DD)'),
      time: fields.time('Time of the reservation (HH:MM, 24-hour)'),
      partySize: partySize(),
      name: z.string().max(200).default('Guest').describe('Name for the reservation'),
      specialRequests: z.string().max(500).optional().describe('Allergies, a high chair, a terrace table…'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'book_restaurant_table');
      return {
        reservationId: random.id('RB-', { digits: true }),
        restaurant: input.restaurantName ?? random.pick(names),
        city: findCity(input.city).name,
        date: input.date,
        time: input.time.slice(0, 5),
        partySize: input.partySize,
        status: 'confirmed',
      };
    },
  }),
  defineTool({
    name: 'cancel_restaurant_reservation',
    description: 'Cancel a restaurant reservation.',
    tags: [...tags, 'reservations'],
    input: z.object({ reservationId: reservationId() }),
    execute: (input) => ({ reservationId: input.reservationId, status: 'cancelled' }),
  }),
  defineTool({
    name: 'modify_restaurant_reservation',
    description: 'Change the date, time or party size of a restaurant reservation.',
    tags: [...tags, 'reservations'],
    input: z.object({
      reservationId: reservationId(),
      date: fields.date('New day (YYYY-MM-DD)').optional(),
      time: fields.time('New time (HH:MM)').optional(),
      partySize: partySize().optional(),
    }),
    execute: (input) => ({
      reservationId: input.reservationId,
      status: 'confirmed',
      changed: Object.keys(input).filter((key) => key !== 'reservationId'),
    }),
  }),
  defineTool({
    name: 'get_restaurant_menu',
    description: 'Get the menu of a restaurant with dishes, prices and allergens.',
    tags: [...tags, 'menu'],
    input: z.object({ restaurantId: restaurantId() }),
    execute: (input) => {
      const random = createRandom(input, 'get_restaurant_menu');
      return {
        restaurantId: input.restaurantId,
        currency: 'EUR',
        dishes: ['Cacio e pepe', 'Bacalhau à Brás', 'Grilled octopus', 'Tiramisu', 'Burrata'].map((dish) => ({
          dish,
          price: random.int(8, 32),
          allergens: random.sample(['gluten', 'dairy', 'fish', 'nuts'], random.int(0, 2)),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_restaurant_reviews',
    description: 'Read recent reviews of a restaurant.',
    tags: [...tags, 'reviews'],
    input: z.object({ restaurantId: restaurantId(), limit: fields.limit(50, 5) }),
    execute: (input) => {
      const random = createRandom(input, 'get_restaurant_reviews');
      return {
        rating: random.float(3.8, 4.9, 1),
        reviews: Array.from({ length: Math.min(input.limit, 3) }, () => ({
          stars: random.int(3, 5),
          text: random.pick([
            'Best carbonara in town.',
            'Slow service, lovely terrace.',
            'Book ahead on weekends!',
          ]),
          date: addDays(catalogToday, -random.int(1, 200)),
        })),
      };
    },
  }),
  defineTool({
    name: 'list_restaurant_reservations',
    description: 'List your upcoming restaurant reservations.',
    tags: [...tags, 'reservations'],
    input: z.object({ limit: fields.limit(50, 10) }),
    execute: (input) => {
      const random = createRandom(input, 'list_restaurant_reservations');
      return {
        reservations: Array.from({ length: Math.min(input.limit, 2) }, () => ({
          reservationId: random.id('RB-', { digits: true }),
          restaurant: random.pick(names),
          date: addDays(catalogToday, random.int(1, 30)),
          time: random.pick(['19:30', '20:00', '21:00']),
          partySize: random.int(2, 6),
        })),
      };
    },
  }),
  defineTool({
    name: 'join_restaurant_waitlist',
    description:
      'Join the waitlist of a fully booked restaurant for a date; you are notified when a table frees up.',
    tags: [...tags, 'reservations', 'waitlist'],
    input: z.object({
      restaurantId: restaurantId(),
      date: fields.date('Day (YYYY-MM-DD)'),
      partySize: partySize(),
      phone: z.string().min(5).max(30).describe('Phone number for the notification'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'join_restaurant_waitlist');
      return {
        waitlistId: random.id('WL-', { digits: true }),
        position: random.int(1, 12),
        date: input.date,
      };
    },
  }),
];
