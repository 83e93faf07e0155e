import type { ReactNode } from 'react';

/**
 * The top of My Profile: its heading and the name and email card. One component for the page
 * and for the prerendered stand-in in the shell's HTML (src/app/prerender.tsx), which passes
 * empty slots the shell's inline script fills, so the two cannot drift apart in wording or box.
 */
export function ProfileIdentity({ name, email }: { name: ReactNode; email: ReactNode }) {
  return (
    <>
      <h1 id="my-profile-title">My Profile</h1>
      <div className="card dash-identity">
        <p>
          <span className="dash-label">Name</span> {name}
        </p>
        <p>
          <span className="dash-label">Email</span> {email}
        </p>
      </div>
    </>
  );
}
