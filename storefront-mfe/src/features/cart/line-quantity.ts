import { useCallback, useEffect, useRef, useState } from 'react';
import type { Cart, CartLine } from '@motoparts/contracts';
import { errorMessage, useAppDispatch } from '@motoparts/state';
import { cartApi } from '@motoparts/state/cart';

/**
 * A cart line's quantity as the customer sets it. The stepper moves by one piece per press, so a
 * few presses in a row are normal: the number shown follows each press at once, and the API is
 * sent the latest quantity one request at a time (a press made while a request is out waits for
 * it, and only the last of those presses is sent), so answers can never arrive out of order.
 * Each answer is the whole cart, written straight into the cache: the total, the top bar's count
 * and the line's own price follow without waiting for the refetch the tag invalidation starts.
 */
export function useLineQuantity(line: Pick<CartLine, 'partId' | 'qty'>, onBusy: (busy: boolean) => void) {
  const dispatch = useAppDispatch();
  /** The quantity asked for and not yet saved; null while the line shows what the API has. */
  const [asked, setAsked] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const wanted = useRef<number | null>(null);
  const sending = useRef(false);
  const busyRef = useRef(onBusy);
  busyRef.current = onBusy;

  const send = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    busyRef.current(true);
    for (let qty = wanted.current; qty !== null; qty = wanted.current) {
      try {
        const cart: Cart = await dispatch(
          cartApi.endpoints.setCartLine.initiate({ partId: line.partId, qty }),
        ).unwrap();
        dispatch(cartApi.util.updateQueryData('getCart', undefined, () => cart));
        if (wanted.current === qty) wanted.current = null;
      } catch (err) {
        // The API's refusal (the stock fell meanwhile: "You have reach our available stocks") is
        // shown under the line, which goes back to what the API has.
        wanted.current = null;
        setError(errorMessage(err, 'The quantity could not be changed. Please try again.'));
      }
    }
    sending.current = false;
    setAsked(null);
    busyRef.current(false);
  }, [dispatch, line.partId]);

  // A line removed while its quantity is being saved is no longer busy.
  useEffect(() => () => busyRef.current(false), []);

  const setQty = (qty: number) => {
    setError(null);
    wanted.current = qty;
    setAsked(qty);
    void send();
  };

  return { qty: asked ?? line.qty, saving: asked !== null, error, setQty };
}
