import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, emailFor, firstNames, lastNames } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const stripe = ['payments', 'stripe'] as const;

const customerId = () => z.string().min(1).max(100).describe('Stripe customer id, e.g. "cus_9s6XKzkNRiz8i3"');
const currency = () =>
  z
    .enum(['usd', 'eur', 'gbp', 'jpy', 'cad', 'aud', 'chf'])
    .default('usd')
    .describe('Three-letter currency code (lowercase)');
const amount = () =>
  z.number().int().min(1).max(99_999_999).describe('Amount in the smallest currency unit (cents)');
const stripeId = (random: SeededRandom, prefix: string) => random.id(prefix, { length: 14 });
const customerName = (random: SeededRandom) => `${random.pick(firstNames)} ${random.pick(lastNames)}`;
const pastDate = (random: SeededRandom) => addDays(catalogToday, -random.int(0, 45));

export const paymentsTools = [
  defineTool({
    name: 'create_stripe_customer',
    description: 'Create a Stripe customer with a name, email and optional metadata.',
    tags: [...stripe, 'customers'],
    input: z.object({
      email: fields.email('Customer email'),
      name: z.string().max(200).optional().describe('Customer full name'),
      description: z.string().max(500).optional().describe('Internal note'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_stripe_customer');
      return {
        id: stripeId(random, 'cus_'),
        email: input.email,
        name: input.name ?? null,
        created: catalogToday,
      };
    },
  }),
  defineTool({
    name: 'get_stripe_customer',
    description: 'Get a Stripe customer: contact details, balance, default payment method and subscriptions.',
    tags: [...stripe, 'customers'],
    input: z.object({ customerId: customerId() }),
    execute: (input) => {
      const random = createRandom(input, 'get_stripe_customer');
      const name = customerName(random);
      return {
        id: input.customerId,
        name,
        email: emailFor(name, 'example.com'),
        balance: random.int(-5000, 0),
        defaultPaymentMethod: `card ending ${random.int(1000, 9999)}`,
        subscriptions: random.int(0, 2),
      };
    },
  }),
  defineTool({
    name: 'list_stripe_customers',
    description: 'List Stripe customers, optionally only those with a given email.',
    tags: [...stripe, 'customers'],
    input: z.object({
      email: fields.email('Only customers with this email').optional(),
      limit: fields.limit(100, 10),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_stripe_customers');
      return {
        data: Array.from({ length: Math.min(input.limit, input.email ? 1 : 5) }, () => {
          const name = customerName(random);
          return { id: stripeId(random, 'cus_'), name, email: input.email ?? emailFor(name, 'example.com') };
        }),
      };
    },
  }),
  defineTool({
    name: 'create_payment_intent',
    description: 'Create a Stripe PaymentIntent to charge a customer an amount in a currency.',
    tags: [...stripe, 'charges'],
    input: z.object({
      amount: amount(),
      currency: currency(),
      customerId: customerId().optional(),
      description: z.string().max(500).optional().describe('What the payment is for'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_payment_intent');
      const id = stripeId(random, 'pi_');
      return {
        id,
        amount: input.amount,
        currency: input.currency,
        status: 'requires_payment_method',
        clientSecret: `${id}_secret_${random.id('')}`,
      };
    },
  }),
  defineTool({
    name: 'get_stripe_charge',
    description: 'Get one Stripe charge with its amount, status, card and failure reason if any.',
    tags: [...stripe, 'charges'],
    input: z.object({
      chargeId: z.string().min(1).max(100).describe('Charge id, e.g. "ch_3MmlLrLkdIwHu7ix0snN0B15"'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_stripe_charge');
      const failed = random.bool(0.2);
      return {
        id: input.chargeId,
        amount: random.int(500, 50_000),
        currency: 'usd',
        status: failed ? 'failed' : 'succeeded',
        failureMessage: failed ? 'Your card was declined.' : null,
        card: { brand: random.pick(['visa', 'mastercard', 'amex']), last4: String(random.int(1000, 9999)) },
        refunded: !failed && random.bool(0.1),
      };
    },
  }),
  defineTool({
    name: 'list_stripe_charges',
    description: 'List recent Stripe charges, optionally of one customer or only failed ones.',
    tags: [...stripe, 'charges'],
    input: z.object({
      customerId: customerId().optional(),
      status: z.enum(['succeeded', 'failed', 'pending']).optional().describe('Only charges in this status'),
      limit: fields.limit(100, 10),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_stripe_charges');
      return {
        data: Array.from({ length: Math.min(input.limit, 5) }, () => ({
          id: stripeId(random, 'ch_'),
          amount: random.int(500, 50_000),
          currency: 'usd',
          status: input.status ?? random.pick(['succeeded', 'succeeded', 'failed']),
          created: pastDate(random),
        })),
      };
    },
  }),
  defineTool({
    name: 'create_stripe_refund',
    description: 'Refund a Stripe charge or PaymentIntent, fully or partly.',
    tags: [...stripe, 'refunds'],
    input: z.object({
      chargeId: z.string().min(1).max(100).describe('Charge or PaymentIntent id to refund'),
      amount: amount().optional().describe('Amount to refund in cents; the whole charge when omitted'),
      reason: z
        .enum(['duplicate', 'fraudulent', 'requested_by_customer'])
        .default('requested_by_customer')
        .describe('Why the refund is made'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_stripe_refund');
      return {
        id: stripeId(random, 're_'),
        charge: input.chargeId,
        amount: input.amount ?? random.int(500, 50_000),
        status: 'succeeded',
        reason: input.reason,
      };
    },
  }),
  defineTool({
    name: 'list_stripe_refunds',
    description: 'List Stripe refunds, optionally for one charge, with their status and failure reason.',
    tags: [...stripe, 'refunds'],
    input: z.object({
      chargeId: z.string().max(100).optional().describe('Only refunds of this charge'),
      limit: fields.limit(100, 10),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_stripe_refunds');
      return {
        data: Array.from({ length: Math.min(input.limit, random.int(1, 4)) }, () => {
          const failed = random.bool(0.25);
          return {
            id: stripeId(random, 're_'),
            charge: input.chargeId ?? stripeId(random, 'ch_'),
            amount: random.int(500, 20_000),
            status: failed ? 'failed' : 'succeeded',
            failureReason: failed
              ? random.pick(['expired_or_canceled_card', 'lost_or_stolen_card', 'unknown'])
              : null,
          };
        }),
      };
    },
  }),
  defineTool({
    name: 'create_stripe_invoice',
    description: 'Create a draft Stripe invoice for a customer with one line item.',
    tags: [...stripe, 'invoices'],
    input: z.object({
      customerId: customerId(),
      amount: amount(),
      currency: currency(),
      description: fields.text('Line item description', 500),
      daysUntilDue: z.number().int().min(0).max(365).default(30).describe('Days the customer has to pay'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_stripe_invoice');
      return {
        id: stripeId(random, 'in_'),
        status: 'draft',
        total: input.amount,
        currency: input.currency,
        dueDate: addDays(catalogToday, input.daysUntilDue),
      };
    },
  }),
  defineTool({
    name: 'send_stripe_invoice',
    description: 'Finalise a draft Stripe invoice and email it to the customer.',
    tags: [...stripe, 'invoices'],
    input: z.object({
      invoiceId: z.string().min(1).max(100).describe('Invoice id, e.g. "in_1MtHbELkdIwHu7ixl4OzzPMv"'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'send_stripe_invoice');
      return {
        id: input.invoiceId,
        status: 'open',
        hostedInvoiceUrl: `https://invoice.stripe.com/i/${random.id('acct_')}`,
      };
    },
  }),
  defineTool({
    name: 'list_stripe_invoices',
    description:
      'List Stripe invoices, optionally of one customer or in one status (draft, open, paid, void).',
    tags: [...stripe, 'invoices'],
    input: z.object({
      customerId: customerId().optional(),
      status: z
        .enum(['draft', 'open', 'paid', 'void', 'uncollectible'])
        .optional()
        .describe('Only invoices in this status'),
      limit: fields.limit(100, 10),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_stripe_invoices');
      return {
        data: Array.from({ length: Math.min(input.limit, 4) }, () => ({
          id: stripeId(random, 'in_'),
          total: random.int(1000, 200_000),
          status: input.status ?? random.pick(['open', 'paid', 'paid']),
          dueDate: addDays(catalogToday, random.int(-20, 30)),
        })),
      };
    },
  }),
  defineTool({
    name: 'create_stripe_subscription',
    description: 'Subscribe a Stripe customer to a recurring price, optionally with a trial.',
    tags: [...stripe, 'subscriptions'],
    input: z.object({
      customerId: customerId(),
      priceId: z.string().min(1).max(100).describe('Price id of the plan, e.g. "price_pro_monthly"'),
      trialDays: z.number().int().min(0).max(730).default(0).describe('Free trial length in days'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_stripe_subscription');
      return {
        id: stripeId(random, 'sub_'),
        status: input.trialDays > 0 ? 'trialing' : 'active',
        currentPeriodEnd: addDays(catalogToday, input.trialDays > 0 ? input.trialDays : 30),
      };
    },
  }),
  defineTool({
    name: 'cancel_stripe_subscription',
    description: 'Cancel a Stripe subscription now or at the end of the current billing period.',
    tags: [...stripe, 'subscriptions'],
    input: z.object({
      subscriptionId: z
        .string()
        .min(1)
        .max(100)
        .describe('Subscription id, e.g. "sub_1MowQVLkdIwHu7ixeRlqHVzs"'),
      atPeriodEnd: z.boolean().default(true).describe('Keep it active until the period ends'),
    }),
    execute: (input) => ({
      id: input.subscriptionId,
      status: input.atPeriodEnd ? 'active' : 'canceled',
      cancelAtPeriodEnd: input.atPeriodEnd,
    }),
  }),
  defineTool({
    name: 'get_stripe_balance',
    description: 'Get the Stripe account balance: available and pending funds per currency.',
    tags: [...stripe, 'balance'],
    input: z.object({}),
    execute: () => ({
      available: [
        { amount: 1_284_550, currency: 'usd' },
        { amount: 402_010, currency: 'eur' },
      ],
      pending: [{ amount: 96_300, currency: 'usd' }],
    }),
  }),
  defineTool({
    name: 'list_stripe_payouts',
    description: 'List payouts from the Stripe balance to your bank account with their arrival dates.',
    tags: [...stripe, 'payouts'],
    input: z.object({
      status: z
        .enum(['paid', 'pending', 'in_transit', 'failed'])
        .optional()
        .describe('Only payouts in this status'),
      limit: fields.limit(100, 10),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_stripe_payouts');
      return {
        data: Array.from({ length: Math.min(input.limit, 4) }, (_, index) => ({
          id: stripeId(random, 'po_'),
          amount: random.int(50_000, 900_000),
          currency: 'usd',
          arrivalDate: addDays(catalogToday, 2 - index * 7),
          status: input.status ?? (index === 0 ? 'in_transit' : 'paid'),
        })),
      };
    },
  }),
  defineTool({
    name: 'create_payment_link',
    description: 'Create a shareable Stripe payment link for a product and price.',
    tags: [...stripe, 'checkout'],
    input: z.object({
      productName: fields.text('What the customer pays for', 250),
      amount: amount(),
      currency: currency(),
      quantity: z.number().int().min(1).max(999).default(1).describe('Quantity'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_payment_link');
      return {
        id: stripeId(random, 'plink_'),
        url: `https://buy.stripe.com/${random.id('', { length: 14 })}`,
        total: input.amount * input.quantity,
        currency: input.currency,
      };
    },
  }),
];
