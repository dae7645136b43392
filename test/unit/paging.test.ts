import { keysetWindow, type PageWindow, pageWindow } from '../../src/query/paging';

type Row = [
  total: number,
  pageSize: number,
  page: number,
  count: number,
  numPages: number,
  start: number,
  end: number,
  hasNext: boolean,
  lastPage: number,
];

// Production's arithmetic (the behaviour contract's worked values, Restcomm's endpoint tests; README, "Paging").
const production: Row[] = [
  [448, 50, 0, 50, 8, 0, 49, true, 8],
  [448, 50, 2, 50, 8, 100, 149, true, 8],
  [448, 50, 8, 48, 8, 400, 448, false, 8],
  [448, 100, 0, 100, 4, 0, 99, true, 4],
  [448, 100, 2, 100, 4, 200, 299, true, 4],
  [448, 100, 4, 48, 4, 400, 448, false, 4],
  [34, 50, 0, 34, 0, 0, 34, false, 0],
  [34, 10, 0, 10, 3, 0, 9, true, 3],
  [34, 10, 2, 10, 3, 20, 29, true, 3],
  [34, 10, 3, 4, 3, 30, 34, false, 3],
  [34, 1, 0, 1, 34, 0, 0, true, 34],
  [34, 1, 33, 1, 34, 33, 33, true, 34],
  [34, 1, 34, 0, 34, 34, 34, false, 34],
  [0, 50, 0, 0, 0, 0, 0, false, 0],
  // total a multiple of PageSize: the last page (Page=num_pages) is valid and empty.
  [50, 50, 0, 50, 1, 0, 49, true, 1],
  [50, 50, 1, 0, 1, 50, 50, false, 1],
  [1, 50, 0, 1, 0, 0, 1, false, 0],
  [1, 1, 0, 1, 1, 0, 0, true, 1],
  [1, 1, 1, 0, 1, 1, 1, false, 1],
  [448, 99999999, 0, 448, 0, 0, 448, false, 0],
];

// The documented reading: ceil page count (at least 1), inclusive end, last page num_pages-1.
const documented: Row[] = [
  [448, 50, 0, 50, 9, 0, 49, true, 8],
  [448, 50, 8, 48, 9, 400, 447, false, 8],
  [34, 10, 3, 4, 4, 30, 33, false, 3],
  [34, 1, 0, 1, 34, 0, 0, true, 33],
  [34, 1, 33, 1, 34, 33, 33, false, 33],
  [50, 50, 0, 50, 1, 0, 49, false, 0],
  [0, 50, 0, 0, 1, 0, 0, false, 0],
  [1, 50, 0, 1, 1, 0, 0, false, 0],
];

function check(profile: 'production' | 'documented', row: Row): void {
  const [total, pageSize, page, count, numPages, start, end, hasNext, lastPage] = row;
  const w = pageWindow(profile, total, page, pageSize) as PageWindow;
  expect('beyond' in w).toBe(false);
  expect({
    count: w.count,
    numPages: w.numPages,
    start: w.start,
    end: w.end,
    hasNext: w.hasNext,
    lastPage: w.lastPage,
  }).toEqual({
    count,
    numPages,
    start,
    end,
    hasNext,
    lastPage,
  });
  expect(w.offset).toBe(page * pageSize);
  expect(w.hasPrevious).toBe(page > 0);
}

describe('pageWindow, production profile', () => {
  test.each(production)('total %i, PageSize %i, Page %i', (...row) => check('production', row as Row));

  test.each([
    [448, 50, 9, 8],
    [0, 50, 1, 0],
    [34, 10, 4, 3],
    [50, 50, 2, 1],
    [1, 50, 1, 0],
    [448, 1, 2147483647, 448],
  ])('total %i, PageSize %i: Page %i is beyond the last page %i', (total, pageSize, page, last) => {
    expect(pageWindow('production', total, page, pageSize)).toEqual({ beyond: last });
  });
});

describe('pageWindow, documented profile', () => {
  test.each(documented)('total %i, PageSize %i, Page %i', (...row) => check('documented', row as Row));

  test.each([
    [448, 50, 9, 8],
    [0, 50, 1, 0],
    [50, 50, 1, 0],
  ])('total %i, PageSize %i: Page %i is beyond the last page %i', (total, pageSize, page, last) => {
    expect(pageWindow('documented', total, page, pageSize)).toEqual({ beyond: last });
  });
});

describe("keysetWindow: a page a cursor placed (Twilio's dialect)", () => {
  // [page, pageSize, total, offset, count, start, end, hasPrevious, hasNext]
  const cases: [number, number, number, number, number, number, number, boolean, boolean][] = [
    [0, 50, 448, 0, 50, 0, 49, false, true],
    [1, 50, 448, 50, 50, 50, 99, true, true],
    [8, 50, 448, 400, 48, 400, 447, true, false],
    [0, 50, 0, 0, 0, 0, 0, false, false],
    [3, 10, 5, 5, 0, 5, 5, true, false],
    [7, 1000, 10, 0, 10, 0, 9, false, false],
  ];
  test.each(cases)(
    'page %i, size %i, total %i, at %i, %i items',
    (page, size, total, offset, count, start, end, prev, next) => {
      expect(keysetWindow(page, size, total, offset, count)).toMatchObject({
        page,
        pageSize: size,
        total,
        start,
        end,
        hasPrevious: prev,
        hasNext: next,
      });
    },
  );
});
