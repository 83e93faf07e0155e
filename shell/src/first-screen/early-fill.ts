/**
 * The name under which index.html's inline script leaves the filling of a prerendered stand-in
 * with its route's data (first-screen.tsx): a promise that resolves once the stand-in is filled
 * (to the data it was filled with), cannot be, or EARLY_FILL_WAIT_MS after the script ran (to
 * undefined); it never rejects. Its own module, with no imports, because the shell's entry reads
 * it before the shared modules are negotiated.
 */
export const EARLY_FILL_KEY = '__motopartsFirstScreen';

/** That promise; resolved to undefined where the inline script had nothing to fill. */
export function earlyFill(): Promise<unknown> {
  return (
    (window as unknown as Record<string, Promise<unknown> | undefined>)[EARLY_FILL_KEY] ?? Promise.resolve()
  );
}

/**
 * How long the shell's entry may hold its start-up back for that filling, counted from the head
 * of the page. Once the app's chunks are being evaluated, the answer's few callbacks wait behind
 * them (at 4× CPU, 0.4–1.3 s after the response had arrived), so the filled part would paint
 * only just before the page itself.
 */
export const EARLY_FILL_WAIT_MS = 800;
