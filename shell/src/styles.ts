import { injectStyles } from '@motoparts/state';
import css from './shell.css';

export function injectShellStyles(): void {
  injectStyles('shell-styles', css);
}
