import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, currencies, exchangeRate } from '../fake-data';
import { fields } from '../fields';
import { createRandom, hashString } from '../random';

const currency = ['finance', 'currency'] as const;
const markets = ['finance', 'markets'] as const;

const symbol = () => z.string().min(1).max(12).describe('Ticker symbol, e.g. "AAPL"');
/** A stable base price for a ticker, so quotes, history and financials agree. */
const basePrice = (ticker: string) => 20 + (hashString(ticker.toUpperCase()) % 480);

export const financeTools = [
  defineTool({
    name: 'convert_currency',
    description: 'Convert an amount of money from one currency to another at the current exchange rate.',
    tags: [...currency, 'conversion'],
    input: z.object({
      amount: z.number().min(0).max(1_000_000_000_000).describe('Amount to convert'),
      from: fields.currency('Currency to convert from, e.g. "USD"'),
      to: fields.currency('Currency to convert to, e.g. "EUR"'),
    }),
    execute: (input) => {
      const rate = exchangeRate(input.from, input.to);
      return {
        amount: input.amount,
        from: input.from,
        to: input.to,
        rate,
        converted: Math.round(input.amount * rate * 100) / 100,
        date: catalogToday,
      };
    },
  }),
  defineTool({
    name: 'get_exchange_rate',
    description: 'Get the current exchange rate between two currencies.',
    tags: [...currency, 'rates'],
    input: z.object({
      base: fields.currency('Base currency, e.g. "EUR"'),
      quote: fields.currency('Quote currency, e.g. "JPY"'),
    }),
    execute: (input) => ({
      base: input.base,
      quote: input.quote,
      rate: exchangeRate(input.base, input.quote),
      date: catalogToday,
    }),
  }),
  defineTool({
    name: 'get_historical_exchange_rate',
    description: 'Get the exchange rate between two currencies on a past date.',
    tags: [...currency, 'rates', 'history'],
    input: z.object({
      base: fields.currency('Base currency'),
      quote: fields.currency('Quote currency'),
      date: fields.date('Past day (YYYY-MM-DD)'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_historical_exchange_rate');
      const rate = exchangeRate(input.base, input.quote) * random.float(0.93, 1.07, 4);
      return {
        base: input.base,
        quote: input.quote,
        date: input.date,
        rate: Math.round(rate * 1_000_000) / 1_000_000,
      };
    },
  }),
  defineTool({
    name: 'list_currencies',
    description: 'List the supported currencies with their ISO codes and names.',
    tags: [...currency, 'reference'],
    input: z.object({}),
    execute: () => ({
      currencies: Object.entries(currencies).map(([code, info]) => ({ code, name: info.name })),
    }),
  }),
  defineTool({
    name: 'get_stock_quote',
    description: 'Get the latest stock quote for a ticker: price, change, volume and market cap.',
    tags: [...markets, 'stocks'],
    input: z.object({ symbol: symbol() }),
    execute: (input) => {
      const random = createRandom(input, 'get_stock_quote');
      const price = basePrice(input.symbol) * random.float(0.97, 1.03, 4);
      return {
        symbol: input.symbol.toUpperCase(),
        price: Math.round(price * 100) / 100,
        changePercent: random.float(-3.5, 3.5),
        volume: random.int(100_000, 90_000_000),
        marketCapUsd: Math.round(price * random.int(100, 16_000)) * 1_000_000,
        currency: 'USD',
      };
    },
  }),
  defineTool({
    name: 'get_stock_history',
    description: 'Get daily closing prices of a stock over a date range.',
    tags: [...markets, 'stocks', 'history'],
    input: z.object({
      symbol: symbol(),
      startDate: fields.date('First day (YYYY-MM-DD)'),
      days: z.number().int().min(1).max(365).default(5).describe('Number of trading days'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_stock_history');
      let price = basePrice(input.symbol);
      return {
        symbol: input.symbol.toUpperCase(),
        closes: Array.from({ length: Math.min(input.days, 30) }, (_, index) => {
          price *= random.float(0.97, 1.03, 4);
          return { date: addDays(input.startDate, index), close: Math.round(price * 100) / 100 };
        }),
      };
    },
  }),
  defineTool({
    name: 'get_company_financials',
    description:
      'Get the key financials of a listed company for a fiscal year: revenue, net income, margins, EPS.',
    tags: [...markets, 'fundamentals'],
    input: z.object({
      symbol: symbol(),
      fiscalYear: z.number().int().min(1990).max(2030).default(2024).describe('Fiscal year'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_company_financials');
      const revenue = random.int(1, 400) * 1_000_000_000;
      const margin = random.float(0.02, 0.3, 3);
      return {
        symbol: input.symbol.toUpperCase(),
        fiscalYear: input.fiscalYear,
        revenueUsd: revenue,
        netIncomeUsd: Math.round(revenue * margin),
        netMargin: margin,
        eps: random.float(0.5, 12),
      };
    },
  }),
  defineTool({
    name: 'get_crypto_price',
    description: 'Get the current price of a cryptocurrency (BTC, ETH, SOL…) in a fiat currency.',
    tags: [...markets, 'crypto'],
    input: z.object({
      coin: z.string().min(1).max(20).describe('Coin symbol, e.g. "BTC"'),
      currency: fields.currency('Fiat currency for the price, e.g. "USD"').default('USD'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_crypto_price');
      const usd =
        { BTC: 104_000, ETH: 2_500, SOL: 150 }[input.coin.toUpperCase()] ?? basePrice(input.coin) / 10;
      return {
        coin: input.coin.toUpperCase(),
        currency: input.currency,
        price:
          Math.round(usd * exchangeRate('USD', input.currency) * random.float(0.98, 1.02, 4) * 100) / 100,
        change24hPercent: random.float(-6, 6),
      };
    },
  }),
  defineTool({
    name: 'get_market_news',
    description: 'Get the latest financial news headlines, optionally about one company or topic.',
    tags: [...markets, 'news'],
    input: z.object({
      topic: z.string().max(100).optional().describe('Ticker or topic, e.g. "AAPL" or "interest rates"'),
      limit: fields.limit(50, 5),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_market_news');
      const subject = input.topic ?? 'Markets';
      return {
        headlines: Array.from({ length: Math.min(input.limit, 3) }, () => ({
          title: `${subject}: ${random.pick(['shares rise after earnings beat', 'analysts weigh rate outlook', 'investors eye inflation data'])}`,
          source: random.pick(['Reuters', 'Bloomberg', 'Financial Times']),
          date: addDays(catalogToday, -random.int(0, 3)),
        })),
      };
    },
  }),
  defineTool({
    name: 'calculate_loan_payment',
    description: 'Calculate the monthly payment and total interest of a loan or mortgage.',
    tags: ['finance', 'calculators', 'loans'],
    input: z.object({
      principal: z.number().positive().max(1_000_000_000).describe('Amount borrowed'),
      annualRatePercent: z.number().min(0).max(100).describe('Yearly interest rate in percent, e.g. 4.5'),
      years: z.number().int().min(1).max(50).describe('Loan term in years'),
    }),
    execute: (input) => {
      const months = input.years * 12;
      const monthlyRate = input.annualRatePercent / 100 / 12;
      const payment =
        monthlyRate === 0
          ? input.principal / months
          : (input.principal * monthlyRate) / (1 - (1 + monthlyRate) ** -months);
      return {
        monthlyPayment: Math.round(payment * 100) / 100,
        totalPaid: Math.round(payment * months * 100) / 100,
        totalInterest: Math.round((payment * months - input.principal) * 100) / 100,
      };
    },
  }),
  defineTool({
    name: 'calculate_compound_interest',
    description: 'Calculate how savings grow with compound interest and optional monthly contributions.',
    tags: ['finance', 'calculators', 'savings'],
    input: z.object({
      initialAmount: z.number().min(0).max(1_000_000_000).describe('Starting balance'),
      annualRatePercent: z.number().min(0).max(100).describe('Yearly interest rate in percent'),
      years: z.number().int().min(1).max(100).describe('Number of years'),
      monthlyContribution: z.number().min(0).max(1_000_000).default(0).describe('Amount added every month'),
    }),
    execute: (input) => {
      let balance = input.initialAmount;
      const monthlyRate = input.annualRatePercent / 100 / 12;
      for (let month = 0; month < input.years * 12; month++)
        balance = balance * (1 + monthlyRate) + input.monthlyContribution;
      const contributed = input.initialAmount + input.monthlyContribution * input.years * 12;
      return {
        finalBalance: Math.round(balance * 100) / 100,
        contributed: Math.round(contributed * 100) / 100,
        interestEarned: Math.round((balance - contributed) * 100) / 100,
      };
    },
  }),
  defineTool({
    name: 'get_portfolio',
    description: 'Get your investment portfolio: holdings, their value and the gain or loss of each.',
    tags: [...markets, 'portfolio'],
    input: z.object({ currency: fields.currency('Currency to show the values in').default('USD') }),
    execute: (input) => {
      const random = createRandom(input, 'get_portfolio');
      const rate = exchangeRate('USD', input.currency);
      const holdings = ['AAPL', 'MSFT', 'VWCE', 'BTC'].map((ticker) => {
        const value = Math.round(basePrice(ticker) * random.int(2, 40) * rate * 100) / 100;
        return { symbol: ticker, value, gainPercent: random.float(-15, 45) };
      });
      return {
        currency: input.currency,
        totalValue: Math.round(holdings.reduce((sum, row) => sum + row.value, 0) * 100) / 100,
        holdings,
      };
    },
  }),
];
