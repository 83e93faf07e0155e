import { deliveryErrors } from '../delivery';

describe('delivery details', () => {
  it('accepts an address and a phone as POST /checkout does', () => {
    expect(deliveryErrors({ address: '12 Workshop Lane\nLeeds', phone: '+44 (113) 496-0000' })).toEqual({});
  });

  it('names each missing or malformed field', () => {
    expect(deliveryErrors({ address: '  ', phone: '' })).toEqual({
      address: 'Address is required',
      phone: 'Phone is required',
    });
    expect(deliveryErrors({ address: 'x'.repeat(301), phone: 'call me' })).toEqual({
      address: 'Address must be at most 300 characters',
      phone: 'Phone may contain only digits, spaces and + ( ) - .',
    });
    expect(deliveryErrors({ address: 'Leeds', phone: '123' }).phone).toBe(
      'Phone must have at least 5 characters',
    );
    expect(deliveryErrors({ address: 'Leeds', phone: '1'.repeat(41) }).phone).toBe(
      'Phone must be at most 40 characters',
    );
  });
});
