import { basicCredentials } from '../../src/input/credentials';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('basicCredentials: the one reader of an Authorization header', () => {
  test.each([
    ['plain', `Basic ${b64('tok:pw')}`, { user: 'tok', password: 'pw' }],
    ['any password, even empty', `Basic ${b64('tok:')}`, { user: 'tok', password: '' }],
    ['a colon in the password', `Basic ${b64('a@b.c:x:y')}`, { user: 'a@b.c', password: 'x:y' }],
    ['the scheme in any case, spaces around', `  bAsIc   ${b64('tok:pw')}  `, { user: 'tok', password: 'pw' }],
    ['UTF-8 text', `Basic ${b64('tök:pw')}`, { user: 'tök', password: 'pw' }],
    ['no colon', `Basic ${b64('tok')}`, null],
    ['another scheme', 'Bearer abc', null],
    ['not base64', 'Basic !!!', null],
    ['absent', undefined, null],
    ['repeated (an array)', ['Basic x', 'Basic y'], null],
  ] as const)('%s', (_name, header, expected) => {
    expect(basicCredentials(header as string | string[] | undefined)).toEqual(expected);
  });
});
