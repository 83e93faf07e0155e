import { lazy, startTransition, Suspense, use, useEffect, useState } from 'react';
import { RemoteBoundary, requireStore } from '@motoparts/state/frame';
import { firstScreenStyles } from '../../../styles/first-screen';
import { HomeHero } from '../components/home-hero';
import { PartsSection, PartsSkeleton } from '../components/parts-section';

/** Null when the page already has the first screen's styles (see firstScreenStyles). */
const stylesLoading = firstScreenStyles();

/** Resolves once the browser has a moment with nothing to do (at most `timeout` ms from now). */
function idle(timeout = 2000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout });
    else setTimeout(resolve, 1);
  });
}

let sectionsLoaded = false;

/**
 * The sections below the first screen need the store (their data comes through RTK Query) and
 * most of this page's code. The hero answers input without them; they load once it has rendered
 * and the browser is idle, so the first screen waits neither for Redux Toolkit nor for them.
 * Once loaded they render at once (coming back to the page restores its scroll position).
 */
const HomeSections = lazy(async () => {
  const [sections] = await Promise.all([import('../components/home-sections'), requireStore()]);
  sectionsLoaded = true;
  return sections;
});

/**
 * The sections' code (or the store's) did not arrive: the hero stays, and Retry loads the page
 * again (a chunk that failed stays failed in the page's module cache).
 */
function SectionsUnavailable({ retry }: { retry: () => void }) {
  return (
    <div className="section">
      <div className="parts-status" role="alert">
        <p>The parts could not be loaded.</p>
        <button type="button" className="btn btn-outline" onClick={retry}>
          Retry
        </button>
      </div>
    </div>
  );
}

function Pending() {
  return (
    <div className="home-pending">
      <PartsSection>
        <PartsSkeleton />
      </PartsSection>
    </div>
  );
}

export default function HomePage() {
  // Until its styles apply, the page stays the shell's loading state rather than paint unstyled.
  if (stylesLoading) use(stylesLoading);
  const [showSections, setShowSections] = useState(sectionsLoaded);
  useEffect(() => {
    let live = true;
    // A transition, so their render is sliced around input instead of one long task.
    if (!showSections) void idle().then(() => live && startTransition(() => setShowSections(true)));
    return () => {
      live = false;
    };
  }, [showSections]);
  return (
    <div className="home">
      <HomeHero />
      {showSections ? (
        <RemoteBoundary
          name="storefront/home sections"
          fallback={(retry) => <SectionsUnavailable retry={retry} />}
          onRetry={() => location.reload()}
        >
          <Suspense fallback={<Pending />}>
            <HomeSections />
          </Suspense>
        </RemoteBoundary>
      ) : (
        <Pending />
      )}
    </div>
  );
}
