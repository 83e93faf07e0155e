import { audienceOf, canSee, menuFor, refusalFor } from '../access';

describe('dashboard menu by role', () => {
  it('gives a customer My Profile, Add Review and My Order only', () => {
    expect(menuFor(false).map((p) => p.label)).toEqual(['My Profile', 'Add Review', 'My Order']);
  });

  it('gives an admin My Profile and the six admin pages, Overview first, no customer pages', () => {
    expect(menuFor(true).map((p) => p.label)).toEqual([
      'My Profile',
      'Overview',
      'Manage Order',
      'All Users',
      'Manage Products',
      'Add Product',
      'Reviews',
    ]);
  });

  it('links to the routes of docs/product.md', () => {
    expect(menuFor(true).map((p) => p.path)).toEqual([
      '',
      'overview',
      'manageOrder',
      'allUser',
      'manageProduct',
      'addProduct',
      'reviews',
    ]);
    expect(menuFor(false).map((p) => p.path)).toEqual(['', 'addReview', 'myOrder']);
  });

  it('guards pages with the same rule as the menu', () => {
    expect(canSee(audienceOf('allUser'), false)).toBe(false);
    expect(canSee(audienceOf('allUser'), true)).toBe(true);
    expect(canSee(audienceOf('overview'), false)).toBe(false);
    expect(canSee(audienceOf('overview'), true)).toBe(true);
    expect(canSee(audienceOf('myOrder'), true)).toBe(false);
    expect(canSee(audienceOf(''), true)).toBe(true);
    expect(canSee(audienceOf(''), false)).toBe(true);
  });

  it('explains a refusal by audience', () => {
    expect(refusalFor('admins')).toMatch(/admins only/);
    expect(refusalFor('customers')).toMatch(/for customers/);
  });
});
