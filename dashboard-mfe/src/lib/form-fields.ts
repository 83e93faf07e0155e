/**
 * The dashboard's form fields, each checked by the API contract's own schema for that field, so a
 * limit (a length, a minimum, a pattern) is written once, in @motoparts/contracts. A form adds only
 * what a text input needs: trimming, "required", reading a number, and saying the contract's
 * refusal in plain words that start with the field's label ("Name must be at most 120 characters").
 */
import { z } from 'zod';

export interface FieldWords {
  /** Starts each message: "Price is required". */
  label: string;
  /**
   * The whole message for a value of the wrong kind (not a number, not one of the choices, not
   * matching the contract's pattern), in place of the contract's own words. A text that is too
   * long still says its limit.
   */
  badValue?: string;
}

/** One refusal of the contract, worded for the person filling in the form. */
export function describeIssue(issue: z.core.$ZodIssue, { label, badValue }: FieldWords): string {
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return `${label} must be at most ${issue.maximum} characters`;
  }
  if (issue.code === 'too_small' && issue.origin === 'string') {
    return issue.minimum === 1
      ? `${label} is required`
      : `${label} must be at least ${issue.minimum} characters`;
  }
  if (badValue) return badValue;
  if (issue.code === 'too_big') return `${label} must be at most ${issue.maximum}`;
  if (issue.code === 'too_small') return `${label} must be at least ${issue.minimum}`;
  if (issue.code === 'invalid_type' && issue.expected === 'int') return `${label} must be a whole number`;
  // The contract's own messages are written to follow a field's name ("must have at most two decimals").
  return `${label} ${issue.message}`;
}

/**
 * Runs the contract's schema for one field and reports its first refusal on that field, the way
 * a form shows one message per field.
 */
function checkedBy<T extends z.ZodType>(contract: T, words: FieldWords) {
  return (value: unknown, ctx: z.RefinementCtx): z.output<T> => {
    const result = contract.safeParse(value);
    if (result.success) return result.data;
    const [first] = result.error.issues;
    if (first) ctx.addIssue({ code: 'custom', path: first.path, message: describeIssue(first, words) });
    return z.NEVER;
  };
}

const requiredText = (label: string) => z.string().trim().min(1, `${label} is required`);

/** A text input, trimmed; `optional` ones may be left empty (the contract still checks them). */
export function textField<T extends z.ZodType>(contract: T, words: FieldWords, { optional = false } = {}) {
  return (optional ? z.string().trim() : requiredText(words.label)).transform(checkedBy(contract, words));
}

/** A photo's address: the contract takes an http(s) URL or a /path on this site. */
export function imageField<T extends z.ZodType>(contract: T, label: string) {
  return textField(contract, {
    label,
    badValue: `${label} must be a web address starting with http:// or https://`,
  });
}

/**
 * A required text input holding a number, for a numeric field of the contract. Pipes stop at the
 * first failing stage, so an empty field says "required" and nothing else.
 */
export function numberField<T extends z.ZodType>(contract: T, words: FieldWords) {
  return requiredText(words.label)
    .pipe(z.string().regex(/^\d+(\.\d+)?$/, words.badValue ?? `${words.label} must be a number`))
    .transform(Number)
    .transform(checkedBy(contract, words));
}

/** A drop-down whose options are the contract's choices; `badValue` is the whole message for any other value. */
export function choiceField<T extends z.ZodType>(contract: T, words: FieldWords & { badValue: string }) {
  return z.string().transform(checkedBy(contract, words));
}
