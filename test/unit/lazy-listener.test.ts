import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { messages } from '../../src/errors';
import { type Listener, lazyListener } from '../../src/http/lazy';

/** A listener that answers its own name and the request's path. */
const answering =
  (name: string): Listener =>
  (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Content-Type', 'text/plain');
    res.end(`${name} ${req.url}`);
  };

describe('lazyListener', () => {
  test('makes its listener once, on the first request; requests meanwhile wait for it', async () => {
    let made = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const lazy = lazyListener(async () => {
      made++;
      await gate;
      return answering('made');
    }, jest.fn());
    const pending = [request(lazy).get('/a'), request(lazy).get('/b')].map((r) => r.then((x) => x.text));
    await new Promise((r) => setTimeout(r, 20));
    expect(made).toBe(1);
    release();
    expect(await Promise.all(pending)).toEqual(['made /a', 'made /b']);
    expect((await request(lazy).get('/c')).text).toBe('made /c');
    expect(made).toBe(1);
  });

  test('load() makes it before any request; a request then goes straight to it', async () => {
    const make = jest.fn(async () => answering('early'));
    const lazy = lazyListener(make, jest.fn());
    await lazy.load();
    await lazy.load();
    expect(make).toHaveBeenCalledTimes(1);
    expect((await request(lazy).get('/x')).text).toBe('early /x');
  });

  test('a listener that fails to load answers 500 with a message, is reported, and is tried again', async () => {
    const onInternal = jest.fn();
    let attempts = 0;
    const lazy = lazyListener(async () => {
      attempts++;
      if (attempts === 1) throw new Error('disk gone');
      return answering('second');
    }, onInternal);
    const failed = await request(lazy).get('/y');
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ message: messages.internal });
    expect(onInternal).toHaveBeenCalledWith(expect.objectContaining({ message: 'disk gone' }));
    expect((await request(lazy).get('/y')).text).toBe('second /y');
    expect(attempts).toBe(2);
  });
});
