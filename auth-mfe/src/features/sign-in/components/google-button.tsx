import { signInIntent } from '../load-sign-in';

interface ButtonProps {
  onClick: () => void;
  disabled: boolean;
}

/** Google's "G" mark beside the label; the text alone names the button for assistive tech. */
function GoogleButton({ onClick, disabled }: ButtonProps) {
  return (
    <button
      type="button"
      className="btn btn-outline google-button"
      onClick={onClick}
      // The visitor is about to press it: Firebase starts loading.
      {...signInIntent}
      disabled={disabled}
    >
      <svg viewBox="0 0 48 48" width="20" height="20" aria-hidden="true" focusable="false">
        <path
          fill="#EA4335"
          d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.6 13.3l7.9 6.1C12.4 13.7 17.7 9.5 24 9.5z"
        />
        <path
          fill="#4285F4"
          d="M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 3-2.3 5.5-4.8 7.2l7.7 6c4.5-4.2 6.9-10.3 6.9-17.7z"
        />
        <path
          fill="#FBBC05"
          d="M10.5 28.6c-.5-1.5-.8-3-.8-4.6s.3-3.1.8-4.6l-7.9-6.1C.9 16.6 0 20.2 0 24s.9 7.4 2.6 10.7l7.9-6.1z"
        />
        <path
          fill="#34A853"
          d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.7-6c-2.2 1.5-5 2.3-8.2 2.3-6.3 0-11.6-4.2-13.5-10l-7.9 6.1C6.6 42.6 14.6 48 24 48z"
        />
      </svg>
      Continue with Google
    </button>
  );
}

/** How both sign-in screens end: an "or" under the form, then the Google button. */
export function OrGoogle({ onClick, disabled }: ButtonProps) {
  return (
    <>
      <p className="auth-divider">
        <span>or</span>
      </p>
      <GoogleButton disabled={disabled} onClick={onClick} />
    </>
  );
}
