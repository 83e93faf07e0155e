/**
 * What `import { toast, ToastContainer } from 'react-toastify'` gives every front end: the
 * webpack config provides this module under that shared name (docs/build.md). Toasts are never
 * part of the first paint, so react-toastify (10 KB gzip) and its stylesheet load on the first
 * toast, and <ToastContainer> renders nothing until then. Nothing is lost meanwhile:
 * react-toastify queues toasts emitted before a container mounts.
 *
 * It reaches the real library as 'react-toastify/unstyled', a name the share scope does not
 * intercept: the default build injects its CSS as a <style> element, which the
 * Content-Security-Policy refuses, so the stylesheet is adopted as a constructed sheet instead.
 */
import { useEffect, useState } from 'react';
import type { Id, ToastContainerProps, ToastContent, ToastOptions, toast as realToast } from 'react-toastify';
import type * as Real from 'react-toastify/unstyled';

type Toastify = typeof Real;
type Toast = typeof realToast;

let lib: Toastify | undefined;
let loading: Promise<Toastify> | undefined;
/** Mounted containers waiting for the library. */
const waiting = new Set<(lib: Toastify) => void>();

function load(): Promise<Toastify> {
  loading ??= Promise.all([
    import(/* webpackChunkName: "react-toastify" */ 'react-toastify/unstyled'),
    import(/* webpackChunkName: "react-toastify" */ 'react-toastify/ReactToastify.css'),
    // With the library, not in this facade: the facade is a shared module of its own, so a
    // static import would put a second copy of the style helper on every first load.
    import(/* webpackChunkName: "react-toastify" */ '../styles'),
  ]).then(([real, css, { injectStyles }]) => {
    injectStyles('react-toastify', css.default);
    lib = real;
    for (const notify of waiting) notify(real);
    waiting.clear();
    return real;
  });
  return loading;
}

let seq = 0;

/** toast() returns its id synchronously, so the facade picks the id before the library is here. */
function emitter(show: (lib: Toastify, content: ToastContent, options: ToastOptions) => Id) {
  return (content: ToastContent, options?: ToastOptions): Id => {
    const opts = { ...options, toastId: options?.toastId ?? `mp-toast-${++seq}` };
    if (lib) return show(lib, content, opts);
    void load().then((real) => show(real, content, opts));
    return opts.toastId;
  };
}

/** Calls that only concern toasts already shown: nothing to do before the first toast. */
function later<A extends unknown[]>(call: (lib: Toastify, ...args: A) => void) {
  return (...args: A): void => {
    if (lib) call(lib, ...args);
    else if (loading) void loading.then((real) => call(real, ...args));
  };
}

export const toast = Object.assign(
  emitter((t, content, options) => t.toast(content, options)),
  {
    success: emitter((t, content, options) => t.toast.success(content, options)),
    error: emitter((t, content, options) => t.toast.error(content, options)),
    info: emitter((t, content, options) => t.toast.info(content, options)),
    warning: emitter((t, content, options) => t.toast.warning(content, options)),
    warn: emitter((t, content, options) => t.toast.warn(content, options)),
    dark: emitter((t, content, options) => t.toast.dark(content, options)),
    loading: emitter((t, content, options) => t.toast.loading(content, options)),
    promise: (...args: Parameters<Toast['promise']>) => load().then((t) => t.toast.promise(...args)),
    dismiss: later((t, ...args: Parameters<Toast['dismiss']>) => t.toast.dismiss(...args)),
    update: later((t, ...args: Parameters<Toast['update']>) => t.toast.update(...args)),
    done: later((t, ...args: Parameters<Toast['done']>) => t.toast.done(...args)),
    clearWaitingQueue: later((t, ...args: Parameters<Toast['clearWaitingQueue']>) =>
      t.toast.clearWaitingQueue(...args),
    ),
    play: later((t, ...args: Parameters<Toast['play']>) => t.toast.play(...args)),
    pause: later((t, ...args: Parameters<Toast['pause']>) => t.toast.pause(...args)),
    isActive: (...args: Parameters<Toast['isActive']>): boolean => lib?.toast.isActive(...args) ?? false,
    onChange: (callback: Parameters<Toast['onChange']>[0]): (() => void) => {
      if (lib) return lib.toast.onChange(callback);
      let off: (() => void) | undefined;
      let cancelled = false;
      void load().then((real) => {
        if (!cancelled) off = real.toast.onChange(callback);
      });
      return () => {
        cancelled = true;
        off?.();
      };
    },
  } satisfies Record<keyof Toast, unknown>,
);

export function ToastContainer(props: ToastContainerProps) {
  const [real, setReal] = useState(lib);
  useEffect(() => {
    if (real) return undefined;
    // The library may have arrived between this render and the effect: the waiters were told then.
    if (lib) {
      setReal(lib);
      return undefined;
    }
    waiting.add(setReal);
    return () => void waiting.delete(setReal);
  }, [real]);
  return real ? <real.ToastContainer {...props} /> : null;
}
