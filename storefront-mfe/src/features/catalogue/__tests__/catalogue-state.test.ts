import { MAX_QUERY, readState, writeState } from '../catalogue-state';
import { pageNumbers } from '../components/catalogue-pager';

const read = (query: string) => readState(new URLSearchParams(query));

describe('catalogue state in the URL', () => {
  it('reads every control from the query string', () => {
    expect(read('q=chain&sort=-price&category=tools&inStock=true&price=25-100&page=3')).toEqual({
      q: 'chain',
      sort: '-price',
      category: 'tools',
      inStock: true,
      price: '25-100',
      page: 3,
    });
  });

  it('falls back to the defaults for unknown or malformed values', () => {
    expect(read('sort=cheapest&category=bikes&inStock=yes&price=cheap&page=0')).toEqual({
      q: '',
      sort: undefined,
      category: undefined,
      inStock: false,
      price: undefined,
      page: 1,
    });
    expect(read('page=2.5').page).toBe(1);
    expect(read('page=100001').page).toBe(1);
  });

  it('trims the search and cuts it to the longest the API takes', () => {
    expect(read('q=%20%20brake%20pads%20').q).toBe('brake pads');
    expect(read(`q=${'x'.repeat(MAX_QUERY + 20)}`).q).toHaveLength(MAX_QUERY);
  });

  it('writes only what differs from the defaults, and reads back the same', () => {
    expect(writeState(read('')).toString()).toBe('');
    const state = read('q=oil&sort=name&category=parts&inStock=true&page=2');
    expect(writeState(state).toString()).toBe('q=oil&sort=name&category=parts&inStock=true&page=2');
    expect(readState(writeState(state))).toEqual(state);
    expect(writeState({ ...state, page: 1, inStock: false }).toString()).toBe(
      'q=oil&sort=name&category=parts',
    );
  });
});

describe('catalogue pager', () => {
  it('shows every page of a short list', () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(2, 3)).toEqual([1, 2, 3]);
  });

  it('shows the ends and the neighbours of the current page, with gaps', () => {
    expect(pageNumbers(1, 10)).toEqual([1, 2, '…', 10]);
    expect(pageNumbers(5, 10)).toEqual([1, '…', 4, 5, 6, '…', 10]);
    expect(pageNumbers(10, 10)).toEqual([1, '…', 9, 10]);
    expect(pageNumbers(3, 10)).toEqual([1, 2, 3, 4, '…', 10]);
  });
});
