import { violations } from './openapi';

afterAll(() => {
  // Every response the suite received fits openapi.json.
  expect(violations).toEqual([]);
});
