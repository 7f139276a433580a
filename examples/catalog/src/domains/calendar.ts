import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, emailFor, firstNames, lastNames } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const tags = ['calendar', 'google-calendar'] as const;

const calendarId = () =>
  z.string().min(1).max(200).default('primary').describe('Calendar id; "primary" for your own');
const eventId = () => z.string().min(1).max(100).describe('Event id');
const attendee = (random: SeededRandom) => emailFor(`${random.pick(firstNames)} ${random.pick(lastNames)}`);
const titles = ['Weekly sync', 'Design review', '1:1', 'Sprint planning', 'Customer call', 'Lunch'];
const at = (date: string, time: string) => `${date}T${time.length === 5 ? `${time}:00` : time}`;

export const calendarTools = [
  defineTool({
    name: 'list_calendar_events',
    description: 'List the events of a calendar between two dates, in start order.',
    tags: [...tags, 'events'],
    input: z.object({
      calendarId: calendarId(),
      from: fields.date('First day to include (YYYY-MM-DD)'),
      to: fields.date('Last day to include (YYYY-MM-DD)').optional(),
      limit: fields.limit(250, 25),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_calendar_events');
      return {
        calendarId: input.calendarId,
        events: Array.from({ length: Math.min(input.limit, random.int(1, 5)) }, (_, index) => {
          const hour = 9 + index * 2;
          return {
            id: random.id('evt_'),
            title: random.pick(titles),
            start: at(input.from, `${String(hour).padStart(2, '0')}:00`),
            end: at(input.from, `${String(hour + 1).padStart(2, '0')}:00`),
            attendees: random.int(1, 8),
          };
        }),
      };
    },
  }),
  defineTool({
    name: 'get_calendar_event',
    description: 'Get one calendar event with its time, location, description and attendees.',
    tags: [...tags, 'events'],
    input: z.object({ calendarId: calendarId(), eventId: eventId() }),
    execute: (input) => {
      const random = createRandom(input, 'get_calendar_event');
      const date = addDays(catalogToday, random.int(0, 10));
      return {
        id: input.eventId,
        title: random.pick(titles),
        start: at(date, '14:00'),
        end: at(date, '14:30'),
        location: random.pick(['Room Atlas', 'Google Meet', 'Office, 3rd floor']),
        attendees: Array.from({ length: random.int(1, 4) }, () => ({
          email: attendee(random),
          response: random.pick(['accepted', 'tentative', 'needsAction']),
        })),
      };
    },
  }),
  defineTool({
    name: 'create_calendar_event',
    description:
      'Create a calendar event (a meeting, a call, a reminder) at a date and time, with a title, duration, location and attendees.',
    tags: [...tags, 'events'],
    input: z.object({
      calendarId: calendarId(),
      title: fields.text('Event title', 300),
      date: fields.date('Day of the event (YYYY-MM-DD)'),
      startTime: fields.time('Start time (HH:MM, 24-hour)'),
      durationMinutes: z.number().int().min(5).max(1440).default(30).describe('Length in minutes'),
      location: z.string().max(300).optional().describe('Place or meeting link'),
      attendees: z.array(z.email()).max(50).optional().describe('Emails of people to invite'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_calendar_event');
      return {
        id: random.id('evt_'),
        title: input.title,
        start: at(input.date, input.startTime),
        durationMinutes: input.durationMinutes,
        attendees: input.attendees ?? [],
        htmlLink: `https://calendar.google.com/event?eid=${random.id('')}`,
      };
    },
  }),
  defineTool({
    name: 'quick_add_calendar_event',
    description:
      'Create an event from a sentence such as "Lunch with Ana tomorrow at 1pm" (Google Calendar quick add).',
    tags: [...tags, 'events'],
    input: z.object({ calendarId: calendarId(), text: fields.text('The event in plain words', 500) }),
    execute: (input) => {
      const random = createRandom(input, 'quick_add_calendar_event');
      return {
        id: random.id('evt_'),
        title: input.text.slice(0, 80),
        start: at(addDays(catalogToday, 1), '13:00'),
      };
    },
  }),
  defineTool({
    name: 'update_calendar_event',
    description: 'Change the title, time, duration or location of an existing calendar event.',
    tags: [...tags, 'events'],
    input: z.object({
      calendarId: calendarId(),
      eventId: eventId(),
      title: z.string().max(300).optional().describe('New title'),
      date: fields.date('New day (YYYY-MM-DD)').optional(),
      startTime: fields.time('New start time (HH:MM)').optional(),
      durationMinutes: z.number().int().min(5).max(1440).optional().describe('New length in minutes'),
      location: z.string().max(300).optional().describe('New location'),
    }),
    execute: (input) => ({
      id: input.eventId,
      updated: Object.keys(input).filter((key) => key !== 'eventId' && key !== 'calendarId'),
    }),
  }),
  defineTool({
    name: 'delete_calendar_event',
    description: 'Delete (cancel) a calendar event and optionally notify its attendees.',
    tags: [...tags, 'events'],
    input: z.object({
      calendarId: calendarId(),
      eventId: eventId(),
      notifyAttendees: z.boolean().default(true).describe('Send cancellation emails'),
    }),
    execute: (input) => ({ id: input.eventId, deleted: true, notified: input.notifyAttendees }),
  }),
  defineTool({
    name: 'find_free_time',
    description:
      'Find time slots on a day when all the given people are free, for a meeting of a given length.',
    tags: [...tags, 'scheduling'],
    input: z.object({
      attendees: z.array(z.email()).min(1).max(20).describe('Emails of the people who must attend'),
      date: fields.date('Day to search (YYYY-MM-DD)'),
      durationMinutes: z.number().int().min(5).max(480).default(30).describe('Meeting length in minutes'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'find_free_time');
      const hours = random.sample([9, 10, 11, 13, 14, 15, 16], 3).sort((a, b) => a - b);
      return {
        date: input.date,
        slots: hours.map((hour) => ({
          start: at(input.date, `${String(hour).padStart(2, '0')}:00`),
          end: at(
            input.date,
            `${String(hour).padStart(2, '0')}:${String(Math.min(input.durationMinutes, 59)).padStart(2, '0')}`,
          ),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_calendar_availability',
    description: "Get one person's busy intervals over a date range (free/busy), without event details.",
    tags: [...tags, 'scheduling'],
    input: z.object({
      email: fields.email('Whose calendar to check'),
      from: fields.date('First day (YYYY-MM-DD)'),
      to: fields.date('Last day (YYYY-MM-DD)').optional(),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_calendar_availability');
      return {
        email: input.email,
        busy: Array.from({ length: random.int(1, 4) }, () => {
          const hour = random.int(9, 16);
          return {
            start: at(input.from, `${String(hour).padStart(2, '0')}:00`),
            end: at(input.from, `${String(hour + 1).padStart(2, '0')}:00`),
          };
        }),
      };
    },
  }),
  defineTool({
    name: 'list_calendars',
    description: 'List the calendars you can see: your own, shared ones and subscribed holiday calendars.',
    tags: [...tags, 'calendars'],
    input: z.object({}),
    execute: () => ({
      calendars: [
        { id: 'primary', name: 'My calendar', accessRole: 'owner' },
        { id: 'team@acme.io', name: 'Team', accessRole: 'writer' },
        { id: 'en.pt#holiday', name: 'Holidays in Portugal', accessRole: 'reader' },
      ],
    }),
  }),
  defineTool({
    name: 'respond_to_calendar_invite',
    description: 'Accept, decline or tentatively accept a calendar invitation.',
    tags: [...tags, 'events', 'invitations'],
    input: z.object({
      eventId: eventId(),
      response: z.enum(['accepted', 'declined', 'tentative']).describe('Your answer'),
      comment: z.string().max(500).optional().describe('Note to the organiser'),
    }),
    execute: (input) => ({ id: input.eventId, response: input.response }),
  }),
  defineTool({
    name: 'add_event_attendees',
    description: 'Invite more people to an existing calendar event.',
    tags: [...tags, 'events', 'invitations'],
    input: z.object({
      calendarId: calendarId(),
      eventId: eventId(),
      attendees: z.array(z.email()).min(1).max(50).describe('Emails to invite'),
    }),
    execute: (input) => ({ id: input.eventId, added: input.attendees }),
  }),
  defineTool({
    name: 'create_recurring_event',
    description: 'Create a repeating calendar event (daily, weekly or monthly) starting on a date.',
    tags: [...tags, 'events'],
    input: z.object({
      calendarId: calendarId(),
      title: fields.text('Event title', 300),
      startDate: fields.date('First occurrence (YYYY-MM-DD)'),
      startTime: fields.time('Start time (HH:MM)'),
      frequency: z.enum(['daily', 'weekly', 'monthly']).default('weekly').describe('How often it repeats'),
      occurrences: z.number().int().min(1).max(365).default(10).describe('Number of occurrences'),
      durationMinutes: z.number().int().min(5).max(1440).default(30).describe('Length in minutes'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_recurring_event');
      const step = input.frequency === 'daily' ? 1 : input.frequency === 'weekly' ? 7 : 30;
      return {
        id: random.id('evt_'),
        recurrence: `RRULE:FREQ=${input.frequency.toUpperCase()};COUNT=${input.occurrences}`,
        firstOccurrences: [0, 1, 2]
          .slice(0, input.occurrences)
          .map((index) => at(addDays(input.startDate, index * step), input.startTime)),
      };
    },
  }),
];
