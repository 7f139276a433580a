import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, dayOfWeek, findCity, weekdayNames } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const tags = ['weather'] as const;

const units = () =>
  z.enum(['metric', 'imperial']).default('metric').describe('metric (°C, km/h) or imperial (°F, mph)');
const conditions = ['sunny', 'partly cloudy', 'cloudy', 'light rain', 'showers', 'thunderstorms', 'clear'];
const toUnits = (celsius: number, system: 'metric' | 'imperial') =>
  system === 'metric' ? Math.round(celsius) : Math.round(celsius * 1.8 + 32);
const around = (random: SeededRandom, city: string) =>
  findCity(city).juneTemperature + random.float(-4, 4, 1);

export const weatherTools = [
  defineTool({
    name: 'get_current_weather',
    description: 'Get the current weather in a city: temperature, conditions, humidity and wind.',
    tags: [...tags, 'current'],
    input: z.object({ city: fields.city(), units: units() }),
    execute: (input) => {
      const random = createRandom(input, 'get_current_weather');
      const city = findCity(input.city);
      return {
        city: city.name,
        country: city.country,
        temperature: toUnits(around(random, input.city), input.units),
        units: input.units,
        condition: random.pick(conditions),
        humidityPercent: random.int(30, 90),
        windSpeed: random.int(2, 35),
      };
    },
  }),
  defineTool({
    name: 'get_weather_forecast',
    description:
      'Get the daily weather forecast for a city for up to 14 days from a start date: highs, lows, conditions and chance of rain.',
    tags: [...tags, 'forecast'],
    input: z.object({
      city: fields.city(),
      startDate: fields.date('First day of the forecast (YYYY-MM-DD)'),
      days: z.number().int().min(1).max(14).default(3).describe('Number of days'),
      units: units(),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_weather_forecast');
      return {
        city: findCity(input.city).name,
        units: input.units,
        days: Array.from({ length: input.days }, (_, index) => {
          const date = addDays(input.startDate, index);
          const high = around(random, input.city);
          return {
            date,
            weekday: weekdayNames[dayOfWeek(date)],
            high: toUnits(high, input.units),
            low: toUnits(high - random.float(6, 11, 1), input.units),
            condition: random.pick(conditions),
            chanceOfRainPercent: random.int(0, 80),
          };
        }),
      };
    },
  }),
  defineTool({
    name: 'get_hourly_forecast',
    description: 'Get the hour-by-hour forecast for a city on one day.',
    tags: [...tags, 'forecast'],
    input: z.object({ city: fields.city(), date: fields.date('Day (YYYY-MM-DD)'), units: units() }),
    execute: (input) => {
      const random = createRandom(input, 'get_hourly_forecast');
      const base = around(random, input.city);
      return {
        city: findCity(input.city).name,
        date: input.date,
        hours: [6, 9, 12, 15, 18, 21].map((hour) => ({
          time: `${String(hour).padStart(2, '0')}:00`,
          temperature: toUnits(base - Math.abs(15 - hour) * 0.6, input.units),
          condition: random.pick(conditions),
          chanceOfRainPercent: random.int(0, 70),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_weather_alerts',
    description: 'Get the active severe-weather warnings (storms, heat, floods) for a city or region.',
    tags: [...tags, 'alerts'],
    input: z.object({ city: fields.city('City or region') }),
    execute: (input) => {
      const random = createRandom(input, 'get_weather_alerts');
      const has = random.bool(0.35);
      return {
        city: findCity(input.city).name,
        alerts: has
          ? [
              {
                type: random.pick(['heat', 'thunderstorm', 'wind']),
                severity: random.pick(['yellow', 'orange']),
                until: 'tomorrow 20:00',
              },
            ]
          : [],
      };
    },
  }),
  defineTool({
    name: 'get_air_quality',
    description: 'Get the air quality index of a city and its main pollutants (PM2.5, PM10, ozone, NO2).',
    tags: [...tags, 'air-quality'],
    input: z.object({ city: fields.city() }),
    execute: (input) => {
      const random = createRandom(input, 'get_air_quality');
      const aqi = random.int(12, 140);
      return {
        city: findCity(input.city).name,
        aqi,
        category: aqi <= 50 ? 'good' : aqi <= 100 ? 'moderate' : 'unhealthy for sensitive groups',
        pollutants: {
          pm25: random.float(3, 55, 1),
          pm10: random.float(8, 80, 1),
          ozone: random.float(20, 120, 1),
          no2: random.float(5, 60, 1),
        },
      };
    },
  }),
  defineTool({
    name: 'get_uv_index',
    description: 'Get the UV index forecast for a city on a day, with sun-protection advice.',
    tags: [...tags, 'uv'],
    input: z.object({ city: fields.city(), date: fields.date('Day (YYYY-MM-DD)') }),
    execute: (input) => {
      const random = createRandom(input, 'get_uv_index');
      const uv = random.int(1, 11);
      return {
        city: findCity(input.city).name,
        date: input.date,
        uvIndex: uv,
        advice: uv >= 6 ? 'Wear sunscreen and a hat; seek shade at midday.' : 'Low risk.',
      };
    },
  }),
  defineTool({
    name: 'get_historical_weather',
    description: 'Get the observed weather of a city on a past date.',
    tags: [...tags, 'history'],
    input: z.object({ city: fields.city(), date: fields.date('Past day (YYYY-MM-DD)'), units: units() }),
    execute: (input) => {
      const random = createRandom(input, 'get_historical_weather');
      const high = around(random, input.city);
      return {
        city: findCity(input.city).name,
        date: input.date,
        high: toUnits(high, input.units),
        low: toUnits(high - 8, input.units),
        precipitationMm: random.float(0, 12, 1),
        condition: random.pick(conditions),
      };
    },
  }),
  defineTool({
    name: 'get_marine_forecast',
    description: 'Get the sea forecast near a coastal city: wave height, swell, water temperature and wind.',
    tags: [...tags, 'marine'],
    input: z.object({ city: fields.city('Coastal city'), date: fields.date('Day (YYYY-MM-DD)') }),
    execute: (input) => {
      const random = createRandom(input, 'get_marine_forecast');
      return {
        city: findCity(input.city).name,
        date: input.date,
        waveHeightM: random.float(0.3, 3.5, 1),
        swellPeriodS: random.int(6, 16),
        waterTemperatureC: random.float(14, 27, 1),
        windKnots: random.int(4, 28),
      };
    },
  }),
  defineTool({
    name: 'get_pollen_count',
    description: 'Get the pollen levels (grass, tree, weed) in a city for allergy sufferers.',
    tags: [...tags, 'pollen', 'health'],
    input: z.object({ city: fields.city() }),
    execute: (input) => {
      const random = createRandom(input, 'get_pollen_count');
      const level = () => random.pick(['low', 'moderate', 'high', 'very high']);
      return { city: findCity(input.city).name, grass: level(), tree: level(), weed: level() };
    },
  }),
  defineTool({
    name: 'get_sunrise_sunset',
    description: 'Get sunrise, sunset and day length for a city on a date.',
    tags: [...tags, 'astronomy'],
    input: z.object({ city: fields.city(), date: fields.date('Day (YYYY-MM-DD)') }),
    execute: (input) => {
      const city = findCity(input.city);
      const northern = city.latitude >= 0;
      const extra = Math.round(Math.abs(city.latitude) / 4);
      const sunrise = northern ? 6 - Math.floor(extra / 2) : 7 + Math.floor(extra / 3);
      const sunset = northern ? 19 + Math.floor(extra / 2) : 17 - Math.floor(extra / 3);
      return {
        city: city.name,
        date: input.date,
        sunrise: `${String(Math.max(3, sunrise)).padStart(2, '0')}:${String((extra * 3) % 60).padStart(2, '0')}`,
        sunset: `${String(Math.min(23, sunset)).padStart(2, '0')}:${String((extra * 7) % 60).padStart(2, '0')}`,
        dayLengthHours: Math.min(20, Math.max(4, sunset - sunrise)),
        timezone: city.timezone,
      };
    },
  }),
];
