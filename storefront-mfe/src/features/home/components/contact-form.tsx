import type { FormEvent } from 'react';

/** docs/product.md: email, subject, message and Submit. Submit has no behaviour, but must not reload. */
export function ContactForm() {
  const onSubmit = (event: FormEvent<HTMLFormElement>) => event.preventDefault();
  return (
    <section className="card contact-card" aria-labelledby="contact-heading">
      <h3 id="contact-heading">Contact us</h3>
      <p className="contact-note">Questions about a bulk order or a part that fits your bike? Write to us.</p>
      <form onSubmit={onSubmit} noValidate>
        <div className="form-field">
          <label htmlFor="contact-email">Email</label>
          <input id="contact-email" name="email" type="email" autoComplete="email" />
        </div>
        <div className="form-field">
          <label htmlFor="contact-subject">Subject</label>
          <input id="contact-subject" name="subject" type="text" />
        </div>
        <div className="form-field">
          <label htmlFor="contact-message">Message</label>
          <textarea id="contact-message" name="message" rows={5} />
        </div>
        <button type="submit" className="btn btn-secondary">
          Submit
        </button>
      </form>
    </section>
  );
}
