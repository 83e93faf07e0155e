import type { ReactNode } from 'react';

interface Answer {
  id: string;
  question: string;
  answer: ReactNode;
}

/** docs/product.md: five stacked cards, each a heading and a short answer. */
const ANSWERS: Answer[] = [
  {
    id: 'performance',
    question: 'How can you improve the performance of a React application?',
    answer: (
      <>
        <p>Measure first with the React Profiler and the browser&apos;s performance tools, then:</p>
        <ul>
          <li>
            Avoid needless re-renders: keep state close to where it is used, and use <code>React.memo</code>,{' '}
            <code>useMemo</code> and <code>useCallback</code> where the profiler shows expensive repeats.
          </li>
          <li>
            Ship less JavaScript: split code by route with <code>React.lazy</code> and dynamic{' '}
            <code>import()</code>, and load heavy libraries only on the screens that need them.
          </li>
          <li>Virtualise long lists so only the visible rows are in the DOM.</li>
          <li>
            Give list items stable <code>key</code>s, size and lazy-load images, and cache server data instead
            of refetching it on every mount.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'state',
    question: 'What are the different ways to manage state in a React application?',
    answer: (
      <ul>
        <li>
          <strong>Local state</strong>: <code>useState</code> or <code>useReducer</code> inside a component,
          for things only it needs, such as an open menu or a form field.
        </li>
        <li>
          <strong>Global state</strong>: data many components share, such as the signed-in user, kept in
          Context or in a store like Redux Toolkit or Zustand.
        </li>
        <li>
          <strong>Server state</strong>: data that lives on the server and is cached on the client, with
          loading, error and refetching handled by RTK Query, TanStack Query or SWR.
        </li>
        <li>
          <strong>URL state</strong>: the path, route parameters and query string (for example a product id or
          a search term), read with the router so the view can be bookmarked and shared.
        </li>
      </ul>
    ),
  },
  {
    id: 'prototypes',
    question: 'How does prototypal inheritance work?',
    answer: (
      <>
        <p>
          Every JavaScript object has an internal link to another object, its prototype. When you read a
          property the object does not have, the engine looks it up on the prototype, then on the
          prototype&apos;s prototype, and so on until it reaches <code>null</code>. This chain is how objects
          inherit behaviour.
        </p>
        <p>
          <code>Object.create(proto)</code> makes an object with a chosen prototype; a constructor called with{' '}
          <code>new</code> links the new object to the constructor&apos;s <code>prototype</code> property; and{' '}
          <code>class</code> with <code>extends</code> is syntax over the same mechanism. Methods stored on
          the prototype are shared by all instances instead of being copied into each one.
        </p>
      </>
    ),
  },
  {
    id: 'setter',
    question: 'Why do we set state through the setter and not directly?',
    answer: (
      <>
        <p>
          React does not watch your variables. Calling the setter (for example <code>setProducts(next)</code>)
          tells React the state changed, so it schedules a re-render and the screen shows the new value.
          Assigning to the variable directly (<code>products = next</code>) or mutating it in place changes
          nothing React can see: no re-render happens, and the value is lost on the next render.
        </p>
        <p>
          React also compares the old and new state by reference to decide whether to render, so updates
          should create a new array or object rather than mutate the old one. When the next value depends on
          the previous one, pass an updater function: <code>setCount((c) =&gt; c + 1)</code>.
        </p>
      </>
    ),
  },
  {
    id: 'unit-tests',
    question: 'What is a unit test and why should we write unit tests?',
    answer: (
      <>
        <p>
          A unit test checks one small piece of code, such as a function or a component, in isolation: it
          gives the unit known inputs and asserts the output or behaviour is what we expect. Tools such as
          Jest or Vitest, with React Testing Library for components, run them in seconds.
        </p>
        <p>
          We write them to catch bugs early, to refactor without fear (a failing test shows what broke), to
          document how the code is meant to behave, and to keep changes safe as the team and the codebase
          grow. Code that is easy to unit test also tends to be better designed.
        </p>
      </>
    ),
  },
];

/**
 * The Q&A page's content. It is also rendered at build time (src/app/prerender.tsx) as the page's
 * first screen, so keep it free of data, effects and browser-only APIs: the same markup must come
 * out of react-dom/server and the browser. `prerendered` marks the build's copy for the shell.
 */
export function BlogsView({ prerendered }: { prerendered?: string }) {
  return (
    <div className="page" data-prerendered={prerendered}>
      <header className="page-head">
        <h1>Questions and answers</h1>
        <p>Short answers to questions we are often asked about React and JavaScript.</p>
      </header>
      <div className="qa-list">
        {ANSWERS.map(({ id, question, answer }) => (
          <article key={id} className="card qa-card" aria-labelledby={`qa-${id}`} data-testid="qa-card">
            <h2 id={`qa-${id}`}>{question}</h2>
            {answer}
          </article>
        ))}
      </div>
    </div>
  );
}
