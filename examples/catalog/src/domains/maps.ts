import { z } from 'zod';
import { defineTool } from '../define-tool';
import { cities, findCity } from '../fake-data';
import { fields } from '../fields';
import { createRandom } from '../random';

const tags = ['maps', 'places'] as const;

const place = (description: string) => z.string().min(1).max(300).describe(description);
const mode = () =>
  z.enum(['driving', 'walking', 'bicycling', 'transit']).default('driving').describe('Travel mode');
const latitude = () => z.number().min(-90).max(90).describe('Latitude in degrees');
const longitude = () => z.number().min(-180).max(180).describe('Longitude in degrees');
/** Great-circle distance in km between two named places (cities known to the catalog, or stable made-up ones). */
const distanceKm = (from: string, to: string) => {
  const a = findCity(from);
  const b = findCity(to);
  const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = toRadians(b.latitude - a.latitude);
  const dLon = toRadians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return Math.max(1, Math.round(2 * 6371 * Math.asin(Math.sqrt(h))));
};
const speedKmH = { driving: 70, walking: 5, bicycling: 16, transit: 40 } as const;

export const mapsTools = [
  defineTool({
    name: 'geocode_address',
    description: 'Turn an address or place name into coordinates (latitude and longitude).',
    tags: [...tags, 'geocoding'],
    input: z.object({ address: place('Address or place name, e.g. "Praça do Comércio, Lisbon"') }),
    execute: (input) => {
      const random = createRandom(input, 'geocode_address');
      const city =
        cities.find((candidate) => input.address.toLowerCase().includes(candidate.name.toLowerCase())) ??
        findCity(input.address);
      return {
        formattedAddress: input.address,
        latitude: Math.round((city.latitude + random.float(-0.05, 0.05, 4)) * 10_000) / 10_000,
        longitude: Math.round((city.longitude + random.float(-0.05, 0.05, 4)) * 10_000) / 10_000,
        country: city.country,
      };
    },
  }),
  defineTool({
    name: 'reverse_geocode',
    description: 'Turn coordinates into the nearest street address.',
    tags: [...tags, 'geocoding'],
    input: z.object({ latitude: latitude(), longitude: longitude() }),
    execute: (input) => {
      const random = createRandom(input, 'reverse_geocode');
      const nearest = [...cities].sort(
        (a, b) =>
          Math.hypot(a.latitude - input.latitude, a.longitude - input.longitude) -
          Math.hypot(b.latitude - input.latitude, b.longitude - input.longitude),
      )[0]!;
      return {
        address: `${random.int(1, 250)} ${random.pick(['Main Street', 'Market Square', 'Harbour Road'])}, ${nearest.name}`,
        city: nearest.name,
        country: nearest.country,
      };
    },
  }),
  defineTool({
    name: 'get_directions',
    description:
      'Get step-by-step directions from one place to another by car, on foot, by bike or by transit.',
    tags: [...tags, 'directions', 'routing'],
    input: z.object({
      origin: place('Start address or place'),
      destination: place('End address or place'),
      mode: mode(),
    }),
    execute: (input) => {
      const km = distanceKm(input.origin, input.destination);
      return {
        origin: input.origin,
        destination: input.destination,
        mode: input.mode,
        distanceKm: km,
        durationMinutes: Math.round((km / speedKmH[input.mode]) * 60),
        steps: [
          `Head out from ${input.origin}`,
          'Continue on the main road',
          `Arrive at ${input.destination}`,
        ],
      };
    },
  }),
  defineTool({
    name: 'get_distance_matrix',
    description: 'Get travel distances and times between several origins and several destinations at once.',
    tags: [...tags, 'routing'],
    input: z.object({
      origins: z.array(z.string().min(1).max(300)).min(1).max(25).describe('Start places'),
      destinations: z.array(z.string().min(1).max(300)).min(1).max(25).describe('End places'),
      mode: mode(),
    }),
    execute: (input) => ({
      rows: input.origins.map((origin) => ({
        origin,
        elements: input.destinations.map((destination) => {
          const km = distanceKm(origin, destination);
          return {
            destination,
            distanceKm: km,
            durationMinutes: Math.round((km / speedKmH[input.mode]) * 60),
          };
        }),
      })),
    }),
  }),
  defineTool({
    name: 'get_travel_time',
    description: 'Estimate how long it takes to travel between two places with a given mode.',
    tags: [...tags, 'routing'],
    input: z.object({ origin: place('Start place'), destination: place('End place'), mode: mode() }),
    execute: (input) => {
      const km = distanceKm(input.origin, input.destination);
      return {
        distanceKm: km,
        durationMinutes: Math.round((km / speedKmH[input.mode]) * 60),
        mode: input.mode,
      };
    },
  }),
  defineTool({
    name: 'search_nearby_places',
    description: 'Find places of a kind (cafés, pharmacies, ATMs, museums…) near a location.',
    tags: [...tags, 'search'],
    input: z.object({
      location: place('Address, place or city to search around'),
      kind: z.string().min(1).max(60).describe('Kind of place, e.g. "pharmacy"'),
      radiusMeters: z.number().int().min(50).max(50000).default(1000).describe('Search radius in meters'),
      limit: fields.limit(20, 5),
    }),
    execute: (input) => {
      const random = createRandom(input, 'search_nearby_places');
      return {
        places: Array.from({ length: Math.min(input.limit, 4) }, () => ({
          placeId: random.id('plc_'),
          name: `${random.pick(['Central', 'Corner', 'Old Town', 'Riverside'])} ${input.kind}`,
          distanceMeters: random.int(40, input.radiusMeters),
          rating: random.float(3.5, 4.9, 1),
          openNow: random.bool(0.7),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_place_details',
    description: 'Get details of a place: address, opening hours, phone, rating and website.',
    tags: [...tags, 'details'],
    input: z.object({ placeId: z.string().min(1).max(100).describe('Place id from a search') }),
    execute: (input) => {
      const random = createRandom(input, 'get_place_details');
      return {
        placeId: input.placeId,
        name: random.pick(['Farmácia Estácio', 'Café Central', 'Museo Nazionale']),
        address: `${random.int(1, 200)} ${random.pick(['Rua Augusta', 'Via Nazionale', 'Kärntner Straße'])}`,
        openingHours: '09:00-19:00',
        phone: `+351 21 ${random.int(100, 999)} ${random.int(1000, 9999)}`,
        rating: random.float(3.5, 4.9, 1),
      };
    },
  }),
  defineTool({
    name: 'autocomplete_place',
    description: 'Suggest place names and addresses as the user types.',
    tags: [...tags, 'search'],
    input: z.object({ text: fields.text('What the user typed so far', 200) }),
    execute: (input) => {
      const lower = input.text.toLowerCase();
      const matches = cities.filter((city) => city.name.toLowerCase().startsWith(lower.slice(0, 3)));
      return {
        suggestions: (matches.length > 0 ? matches : cities.slice(0, 3))
          .slice(0, 5)
          .map((city) => `${city.name}, ${city.country}`),
      };
    },
  }),
  defineTool({
    name: 'get_elevation',
    description: 'Get the elevation above sea level of a point.',
    tags: [...tags, 'terrain'],
    input: z.object({ latitude: latitude(), longitude: longitude() }),
    execute: (input) => {
      const random = createRandom(input, 'get_elevation');
      return { latitude: input.latitude, longitude: input.longitude, elevationMeters: random.int(0, 2400) };
    },
  }),
  defineTool({
    name: 'get_timezone',
    description: 'Get the time zone and UTC offset of a city.',
    tags: [...tags, 'timezones'],
    input: z.object({ city: fields.city() }),
    execute: (input) => {
      const city = findCity(input.city);
      return { city: city.name, timezone: city.timezone };
    },
  }),
];
