import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { loginFormSchema, signupFormSchema, type LoginFormValues, type SignupFormValues } from './schema';

/** The forms' resolvers, in the chunk that brings zod (see load-sign-in.ts). */
export const loginResolver: Resolver<LoginFormValues> = zodResolver(loginFormSchema);
export const signupResolver: Resolver<SignupFormValues> = zodResolver(signupFormSchema);
