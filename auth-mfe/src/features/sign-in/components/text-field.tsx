import type { InputHTMLAttributes } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  error?: FieldError;
}

/** A labelled input whose validation message is announced and tied to it. */
export function TextField({ id, label, registration, error, ...input }: TextFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
        {...registration}
      />
      {error?.message && (
        <p className="field-error" id={errorId} role="alert">
          {error.message}
        </p>
      )}
    </div>
  );
}

interface Field {
  registration: UseFormRegisterReturn;
  error?: FieldError;
}

/**
 * The email and password fields of every form that signs in (login, the home page's card, sign
 * up): `newPassword` tells the browser's password manager to offer a new one.
 */
export function CredentialFields({
  id,
  email,
  password,
  newPassword = false,
}: {
  id: string;
  email: Field;
  password: Field;
  newPassword?: boolean;
}) {
  return (
    <>
      <TextField id={`${id}-email`} label="Email" type="email" autoComplete="email" {...email} />
      <TextField
        id={`${id}-password`}
        label="Password"
        type="password"
        autoComplete={newPassword ? 'new-password' : 'current-password'}
        {...password}
      />
    </>
  );
}
