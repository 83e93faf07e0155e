import { renderToString } from 'react-dom/server';
import { ToastContainer, toast } from '../lazy-toastify';
import { injectStyles } from '../../styles';

jest.mock('react-toastify/ReactToastify.css', () => ({ __esModule: true, default: '.Toastify{}' }));
jest.mock('../../styles', () => ({ injectStyles: jest.fn() }));

// One module instance for the whole file: the library is absent until the first toast, then here.
describe('the lazy react-toastify facade', () => {
  it('renders no container and reports no toast before the library is needed', () => {
    expect(renderToString(<ToastContainer />)).toBe('');
    expect(toast.isActive('anything')).toBe(false);
    expect(injectStyles).not.toHaveBeenCalled();
  });

  it('returns the id of a toast at once, before the library has loaded', () => {
    expect(toast.success('Saved')).toMatch(/^mp-toast-\d+$/);
    expect(toast.error('Refused', { toastId: 'order-42' })).toBe('order-42');
  });

  it('loads the library and its stylesheet once, then the container is the real one', async () => {
    await expect(toast.promise(Promise.resolve('done'), { pending: 'Working' })).resolves.toBe('done');
    expect(injectStyles).toHaveBeenCalledTimes(1);
    expect(injectStyles).toHaveBeenCalledWith('react-toastify', '.Toastify{}');
    expect(renderToString(<ToastContainer />)).toContain('Toastify');
    expect(toast.info('Now direct', { toastId: 'direct' })).toBe('direct');
  });
});
