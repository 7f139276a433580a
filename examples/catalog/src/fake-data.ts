/**
 * Shared data the executors draw from and the planner recognises (city names, airports,
 * currencies). Plain constants: no clock, no network.
 */

/** The catalog's "today": executors and the planner resolve relative dates against it, never the clock. */
export const catalogToday = '2025-06-16';

export interface CityInfo {
  readonly name: string;
  readonly country: string;
  readonly countryCode: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly timezone: string;
  readonly currency: string;
  /** IATA code of the main airport. */
  readonly airport: string;
  /** Typical daytime temperature in June, °C (executors vary around it). */
  readonly juneTemperature: number;
}

export const cities: readonly CityInfo[] = [
  {
    name: 'Rome',
    country: 'Italy',
    countryCode: 'IT',
    latitude: 41.9028,
    longitude: 12.4964,
    timezone: 'Europe/Rome',
    currency: 'EUR',
    airport: 'FCO',
    juneTemperature: 28,
  },
  {
    name: 'Lisbon',
    country: 'Portugal',
    countryCode: 'PT',
    latitude: 38.7223,
    longitude: -9.1393,
    timezone: 'Europe/Lisbon',
    currency: 'EUR',
    airport: 'LIS',
    juneTemperature: 26,
  },
  {
    name: 'Paris',
    country: 'France',
    countryCode: 'FR',
    latitude: 48.8566,
    longitude: 2.3522,
    timezone: 'Europe/Paris',
    currency: 'EUR',
    airport: 'CDG',
    juneTemperature: 23,
  },
  {
    name: 'London',
    country: 'United Kingdom',
    countryCode: 'GB',
    latitude: 51.5074,
    longitude: -0.1278,
    timezone: 'Europe/London',
    currency: 'GBP',
    airport: 'LHR',
    juneTemperature: 21,
  },
  {
    name: 'Berlin',
    country: 'Germany',
    countryCode: 'DE',
    latitude: 52.52,
    longitude: 13.405,
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    airport: 'BER',
    juneTemperature: 22,
  },
  {
    name: 'Madrid',
    country: 'Spain',
    countryCode: 'ES',
    latitude: 40.4168,
    longitude: -3.7038,
    timezone: 'Europe/Madrid',
    currency: 'EUR',
    airport: 'MAD',
    juneTemperature: 30,
  },
  {
    name: 'Barcelona',
    country: 'Spain',
    countryCode: 'ES',
    latitude: 41.3874,
    longitude: 2.1686,
    timezone: 'Europe/Madrid',
    currency: 'EUR',
    airport: 'BCN',
    juneTemperature: 26,
  },
  {
    name: 'Amsterdam',
    country: 'Netherlands',
    countryCode: 'NL',
    latitude: 52.3676,
    longitude: 4.9041,
    timezone: 'Europe/Amsterdam',
    currency: 'EUR',
    airport: 'AMS',
    juneTemperature: 20,
  },
  {
    name: 'Vienna',
    country: 'Austria',
    countryCode: 'AT',
    latitude: 48.2082,
    longitude: 16.3738,
    timezone: 'Europe/Vienna',
    currency: 'EUR',
    airport: 'VIE',
    juneTemperature: 24,
  },
  {
    name: 'Zurich',
    country: 'Switzerland',
    countryCode: 'CH',
    latitude: 47.3769,
    longitude: 8.5417,
    timezone: 'Europe/Zurich',
    currency: 'CHF',
    airport: 'ZRH',
    juneTemperature: 22,
  },
  {
    name: 'Milan',
    country: 'Italy',
    countryCode: 'IT',
    latitude: 45.4642,
    longitude: 9.19,
    timezone: 'Europe/Rome',
    currency: 'EUR',
    airport: 'MXP',
    juneTemperature: 27,
  },
  {
    name: 'Athens',
    country: 'Greece',
    countryCode: 'GR',
    latitude: 37.9838,
    longitude: 23.7275,
    timezone: 'Europe/Athens',
    currency: 'EUR',
    airport: 'ATH',
    juneTemperature: 31,
  },
  {
    name: 'Dublin',
    country: 'Ireland',
    countryCode: 'IE',
    latitude: 53.3498,
    longitude: -6.2603,
    timezone: 'Europe/Dublin',
    currency: 'EUR',
    airport: 'DUB',
    juneTemperature: 18,
  },
  {
    name: 'Stockholm',
    country: 'Sweden',
    countryCode: 'SE',
    latitude: 59.3293,
    longitude: 18.0686,
    timezone: 'Europe/Stockholm',
    currency: 'SEK',
    airport: 'ARN',
    juneTemperature: 20,
  },
  {
    name: 'Prague',
    country: 'Czechia',
    countryCode: 'CZ',
    latitude: 50.0755,
    longitude: 14.4378,
    timezone: 'Europe/Prague',
    currency: 'CZK',
    airport: 'PRG',
    juneTemperature: 23,
  },
  {
    name: 'Istanbul',
    country: 'Türkiye',
    countryCode: 'TR',
    latitude: 41.0082,
    longitude: 28.9784,
    timezone: 'Europe/Istanbul',
    currency: 'TRY',
    airport: 'IST',
    juneTemperature: 27,
  },
  {
    name: 'New York',
    country: 'United States',
    countryCode: 'US',
    latitude: 40.7128,
    longitude: -74.006,
    timezone: 'America/New_York',
    currency: 'USD',
    airport: 'JFK',
    juneTemperature: 27,
  },
  {
    name: 'San Francisco',
    country: 'United States',
    countryCode: 'US',
    latitude: 37.7749,
    longitude: -122.4194,
    timezone: 'America/Los_Angeles',
    currency: 'USD',
    airport: 'SFO',
    juneTemperature: 20,
  },
  {
    name: 'Los Angeles',
    country: 'United States',
    countryCode: 'US',
    latitude: 34.0522,
    longitude: -118.2437,
    timezone: 'America/Los_Angeles',
    currency: 'USD',
    airport: 'LAX',
    juneTemperature: 26,
  },
  {
    name: 'Chicago',
    country: 'United States',
    countryCode: 'US',
    latitude: 41.8781,
    longitude: -87.6298,
    timezone: 'America/Chicago',
    currency: 'USD',
    airport: 'ORD',
    juneTemperature: 26,
  },
  {
    name: 'Toronto',
    country: 'Canada',
    countryCode: 'CA',
    latitude: 43.6532,
    longitude: -79.3832,
    timezone: 'America/Toronto',
    currency: 'CAD',
    airport: 'YYZ',
    juneTemperature: 24,
  },
  {
    name: 'Mexico City',
    country: 'Mexico',
    countryCode: 'MX',
    latitude: 19.4326,
    longitude: -99.1332,
    timezone: 'America/Mexico_City',
    currency: 'MXN',
    airport: 'MEX',
    juneTemperature: 24,
  },
  {
    name: 'São Paulo',
    country: 'Brazil',
    countryCode: 'BR',
    latitude: -23.5505,
    longitude: -46.6333,
    timezone: 'America/Sao_Paulo',
    currency: 'BRL',
    airport: 'GRU',
    juneTemperature: 19,
  },
  {
    name: 'Buenos Aires',
    country: 'Argentina',
    countryCode: 'AR',
    latitude: -34.6037,
    longitude: -58.3816,
    timezone: 'America/Argentina/Buenos_Aires',
    currency: 'ARS',
    airport: 'EZE',
    juneTemperature: 14,
  },
  {
    name: 'Tokyo',
    country: 'Japan',
    countryCode: 'JP',
    latitude: 35.6762,
    longitude: 139.6503,
    timezone: 'Asia/Tokyo',
    currency: 'JPY',
    airport: 'HND',
    juneTemperature: 26,
  },
  {
    name: 'Seoul',
    country: 'South Korea',
    countryCode: 'KR',
    latitude: 37.5665,
    longitude: 126.978,
    timezone: 'Asia/Seoul',
    currency: 'KRW',
    airport: 'ICN',
    juneTemperature: 27,
  },
  {
    name: 'Singapore',
    country: 'Singapore',
    countryCode: 'SG',
    latitude: 1.3521,
    longitude: 103.8198,
    timezone: 'Asia/Singapore',
    currency: 'SGD',
    airport: 'SIN',
    juneTemperature: 31,
  },
  {
    name: 'Bangkok',
    country: 'Thailand',
    countryCode: 'TH',
    latitude: 13.7563,
    longitude: 100.5018,
    timezone: 'Asia/Bangkok',
    currency: 'THB',
    airport: 'BKK',
    juneTemperature: 33,
  },
  {
    name: 'Mumbai',
    country: 'India',
    countryCode: 'IN',
    latitude: 19.076,
    longitude: 72.8777,
    timezone: 'Asia/Kolkata',
    currency: 'INR',
    airport: 'BOM',
    juneTemperature: 31,
  },
  {
    name: 'Dubai',
    country: 'United Arab Emirates',
    countryCode: 'AE',
    latitude: 25.2048,
    longitude: 55.2708,
    timezone: 'Asia/Dubai',
    currency: 'AED',
    airport: 'DXB',
    juneTemperature: 40,
  },
  {
    name: 'Sydney',
    country: 'Australia',
    countryCode: 'AU',
    latitude: -33.8688,
    longitude: 151.2093,
    timezone: 'Australia/Sydney',
    currency: 'AUD',
    airport: 'SYD',
    juneTemperature: 17,
  },
  {
    name: 'Cape Town',
    country: 'South Africa',
    countryCode: 'ZA',
    latitude: -33.9249,
    longitude: 18.4241,
    timezone: 'Africa/Johannesburg',
    currency: 'ZAR',
    airport: 'CPT',
    juneTemperature: 18,
  },
  {
    name: 'Cairo',
    country: 'Egypt',
    countryCode: 'EG',
    latitude: 30.0444,
    longitude: 31.2357,
    timezone: 'Africa/Cairo',
    currency: 'EGP',
    airport: 'CAI',
    juneTemperature: 35,
  },
  {
    name: 'Nairobi',
    country: 'Kenya',
    countryCode: 'KE',
    latitude: -1.2921,
    longitude: 36.8219,
    timezone: 'Africa/Nairobi',
    currency: 'KES',
    airport: 'NBO',
    juneTemperature: 22,
  },
];

const cityByLowerName = new Map(cities.map((city) => [city.name.toLowerCase(), city]));

/** The known city of that name (any case), or a made-up but stable one for an unknown name. */
export function findCity(name: string): CityInfo {
  const known = cityByLowerName.get(name.trim().toLowerCase());
  if (known) return known;
  let hash = 0;
  for (const character of name) hash = (hash * 31 + (character.codePointAt(0) ?? 0)) >>> 0;
  const cleaned = name.trim() || 'Unknown';
  return {
    name: cleaned,
    country: 'Unknown',
    countryCode: 'ZZ',
    latitude: Math.round(((hash % 12000) / 100 - 60) * 10_000) / 10_000,
    longitude: Math.round((((hash >>> 8) % 34000) / 100 - 170) * 10_000) / 10_000,
    timezone: 'UTC',
    currency: 'USD',
    airport: cleaned
      .replace(/[^A-Za-z]/g, '')
      .slice(0, 3)
      .toUpperCase()
      .padEnd(3, 'X'),
    juneTemperature: 15 + (hash % 15),
  };
}

/** ISO 4217 currencies with a rate to one US dollar (fixed, plausible mid-2025 figures). */
export const currencies: Readonly<Record<string, { readonly name: string; readonly perUsd: number }>> = {
  USD: { name: 'US Dollar', perUsd: 1 },
  EUR: { name: 'Euro', perUsd: 0.87 },
  GBP: { name: 'British Pound', perUsd: 0.74 },
  JPY: { name: 'Japanese Yen', perUsd: 144.6 },
  CHF: { name: 'Swiss Franc', perUsd: 0.82 },
  CAD: { name: 'Canadian Dollar', perUsd: 1.37 },
  AUD: { name: 'Australian Dollar', perUsd: 1.54 },
  CNY: { name: 'Chinese Yuan', perUsd: 7.18 },
  INR: { name: 'Indian Rupee', perUsd: 85.9 },
  BRL: { name: 'Brazilian Real', perUsd: 5.56 },
  MXN: { name: 'Mexican Peso', perUsd: 19.0 },
  SEK: { name: 'Swedish Krona', perUsd: 9.55 },
  CZK: { name: 'Czech Koruna', perUsd: 21.6 },
  TRY: { name: 'Turkish Lira', perUsd: 39.3 },
  KRW: { name: 'South Korean Won', perUsd: 1362 },
  SGD: { name: 'Singapore Dollar', perUsd: 1.28 },
  THB: { name: 'Thai Baht', perUsd: 32.6 },
  AED: { name: 'UAE Dirham', perUsd: 3.67 },
  ZAR: { name: 'South African Rand', perUsd: 17.9 },
  EGP: { name: 'Egyptian Pound', perUsd: 49.8 },
  KES: { name: 'Kenyan Shilling', perUsd: 129.2 },
  ARS: { name: 'Argentine Peso', perUsd: 1180 },
};

/** The rate (units of `to` per unit of `from`), falling back to 1 for unknown codes. */
export function exchangeRate(from: string, to: string): number {
  const fromRate = currencies[from.toUpperCase()]?.perUsd ?? 1;
  const toRate = currencies[to.toUpperCase()]?.perUsd ?? 1;
  return Math.round((toRate / fromRate) * 1_000_000) / 1_000_000;
}

export const firstNames = [
  'Ana',
  'Ben',
  'Chiara',
  'Daniel',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Keiko',
  'Luca',
  'Maya',
  'Noah',
  'Olivia',
  'Priya',
  'Rafael',
  'Sofia',
  'Tom',
  'Yara',
] as const;

export const lastNames = [
  'Almeida',
  'Brown',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'García',
  'Hughes',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Patel',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Weber',
] as const;

export const companies = [
  'Acme Corp',
  'Globex',
  'Initech',
  'Umbrella Health',
  'Stark Logistics',
  'Wayne Retail',
  'Hooli',
  'Vandelay Imports',
  'Soylent Foods',
  'Tyrell Systems',
  'Cyberdyne Labs',
  'Wonka Industries',
] as const;

/** The repositories of the example organisation `acme` (the code-hosting tools default to it). */
export const repositories = [
  'payments',
  'web-app',
  'mobile',
  'infra',
  'docs',
  'auth-service',
  'search',
  'billing',
] as const;

/** A full name from the pools, e.g. "Chiara Rossi". */
export function personName(pickFirst: string, pickLast: string): string {
  return `${pickFirst} ${pickLast}`;
}

/** A plausible work email for a full name at a domain. */
export function emailFor(fullName: string, domain = 'acme.io'): string {
  const local = fullName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.')
    .replace(/^\.|\.$/g, '');
  return `${local || 'user'}@${domain}`;
}

/** `date` (YYYY-MM-DD) plus `days`, as YYYY-MM-DD. Pure calendar arithmetic in UTC. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  const time = Date.UTC(year ?? 2025, (month ?? 1) - 1, day ?? 1) + days * 86_400_000;
  return new Date(time).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  const parse = (value: string) => {
    const [year, month, day] = value.split('-').map(Number);
    return Date.UTC(year ?? 2025, (month ?? 1) - 1, day ?? 1);
  };
  return Math.round((parse(to) - parse(from)) / 86_400_000);
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: string): number {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year ?? 2025, (month ?? 1) - 1, day ?? 1)).getUTCDay();
}

export const weekdayNames = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;
