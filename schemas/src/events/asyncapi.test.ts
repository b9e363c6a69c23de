import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildMarketWsAsyncApiDocument, MARKET_WS_CLOSE, PAIR_SYMBOL_PATTERN } from '../api/index';
import { buildAsyncApiDocument, channelId } from './asyncapi';
import { deadLetterTopic, eventTopics } from './topics';

type Doc = {
  asyncapi: string;
  channels: Record<
    string,
    { address: string; messages: Record<string, { $ref: string }>; bindings: unknown }
  >;
  operations: Record<string, { action: string; channel: { $ref: string } }>;
  components: { messages: Record<string, { payload: unknown }> };
};

describe('AsyncAPI document', () => {
  it('is committed up to date with the topic registry (run `npm run schemas:asyncapi` if not)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../asyncapi.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildAsyncApiDocument())));
  });

  it('declares a channel, a dead-letter channel and both operations for every topic', () => {
    const doc = buildAsyncApiDocument() as unknown as Doc;
    expect(doc.asyncapi).toBe('3.0.0');
    for (const topic of Object.keys(eventTopics)) {
      for (const address of [topic, deadLetterTopic(topic)]) {
        const id = channelId(address);
        expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(doc.channels[id]?.address).toBe(address);
        expect(doc.channels[id]?.bindings).toEqual({
          kafka: { topic: address, partitions: 8, bindingVersion: '0.5.0' },
        });
        const actions = Object.values(doc.operations)
          .filter((op) => op.channel.$ref === `#/channels/${id}`)
          .map((op) => op.action);
        expect(actions.sort()).toEqual(['receive', 'send']);
      }
    }
  });

  it('carries each topic’s envelope schema as its message payload', () => {
    const doc = buildAsyncApiDocument() as unknown as Doc;
    const message = doc.components.messages.TradeOpened!;
    expect(message.payload).toEqual(JSON.parse(JSON.stringify(eventTopics['trades.opened.v1'].envelope)));
    expect(JSON.stringify(message.payload)).toContain('"const":"trade.opened"');
  });

  it('points at the server it is given', () => {
    const doc = buildAsyncApiDocument(eventTopics, {
      serverHost: '127.0.0.1:19092',
      partitions: 3,
    }) as unknown as {
      servers: { kafka: { host: string } };
    } & Doc;
    expect(doc.servers.kafka.host).toBe('127.0.0.1:19092');
    expect(doc.channels.marketTicksV1?.bindings).toMatchObject({ kafka: { partitions: 3 } });
  });
});

describe('market WebSocket AsyncAPI document', () => {
  it('is committed up to date (run `npm run schemas:asyncapi` if not)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../market-ws.asyncapi.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildMarketWsAsyncApiDocument())));
  });

  it('states the query, the message and every close code', () => {
    const doc = buildMarketWsAsyncApiDocument('127.0.0.1:9') as unknown as {
      asyncapi: string;
      servers: { gateway: { host: string; protocol: string } };
      channels: {
        marketPrices: {
          address: string;
          description: string;
          bindings: { ws: { query: { required: string[]; properties: { pair: { pattern: string } } } } };
          'x-close-codes': { code: number }[];
        };
      };
      components: { messages: { LivePrice: { payload: { required: string[] } } } };
    };
    expect(doc.asyncapi).toBe('3.0.0');
    expect(doc.servers.gateway).toMatchObject({ host: '127.0.0.1:9', protocol: 'ws' });
    const channel = doc.channels.marketPrices;
    expect(channel.address).toBe('/api/market/ws');
    expect(channel.bindings.ws.query.required).toEqual(['pair']);
    expect(channel.bindings.ws.query.properties.pair.pattern).toBe(PAIR_SYMBOL_PATTERN);
    expect(doc.components.messages.LivePrice.payload.required).toEqual(['pair', 'price', 'ts']);
    for (const code of Object.values(MARKET_WS_CLOSE)) {
      expect(channel['x-close-codes'].map((c) => c.code)).toContain(code);
      expect(channel.description).toContain(`${code}:`);
    }
  });
});
