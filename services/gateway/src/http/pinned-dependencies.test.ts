import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The root package.json overrides two transitive dependencies with their previous major, whose
 * newest releases declare Node 22 only although nothing in them needs it: `cookie` under
 * light-my-request (Fastify's `inject`) and `content-disposition` under @fastify/static. That keeps
 * `npm install` free of EBADENGINE warnings on Node 20.19, which is still supported. These tests
 * run the exact calls the dependents make into the overridden packages, so a version that does not
 * fit fails here rather than in production.
 */
describe('dependencies held at an earlier major for Node 20', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'updown-static-'));
    await writeFile(path.join(root, 'report 1.txt'), 'hello');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('content-disposition: @fastify/static names a download, quoting and encoding the file name', async () => {
    const app = Fastify();
    await app.register(fastifyStatic, { root, serve: false });
    app.get('/plain', (_request, reply) => reply.download('report 1.txt'));
    app.get('/unicode', (_request, reply) => reply.download('report 1.txt', 'résumé.txt'));
    const plain = await app.inject('/plain');
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe('hello');
    expect(plain.headers['content-disposition']).toBe('attachment; filename="report 1.txt"');
    const unicode = await app.inject('/unicode');
    expect(unicode.headers['content-disposition']).toBe(
      `attachment; filename="r?sum?.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
    );
    await app.close();
  });

  it('cookie: inject sends the cookies it is given, encoded, and reads the ones set back', async () => {
    const app = Fastify();
    app.get('/echo', (request, reply) => {
      void reply.header('set-cookie', 'session=abc; Path=/; HttpOnly');
      return { cookie: request.headers.cookie };
    });
    const response = await app.inject({ url: '/echo', cookies: { theme: 'dark', name: 'a b;c' } });
    expect(response.json()).toEqual({ cookie: 'theme=dark; name=a%20b%3Bc' });
    expect(response.cookies).toEqual([{ name: 'session', value: 'abc', path: '/', httpOnly: true }]);
    await app.close();
  });
});
