import { Component, type ReactNode } from 'react';

interface RemoteBoundaryProps {
  /** Named in the console when the remote fails (e.g. "dashboard", "auth/LoginCard"). */
  name: string;
  /** What to show instead of the failed remote; `retry` clears the failure and calls onRetry. */
  fallback: (retry: () => void) => ReactNode;
  /** Makes the next render fetch the remote again (a fresh lazy component). */
  onRetry: () => void;
  children: ReactNode;
}

/**
 * Keeps a remote that failed to load or to render (its server down, a script error) inside its
 * own box: the rest of the page goes on working and the reader can retry. React has error
 * boundaries only as class components.
 */
export class RemoteBoundary extends Component<RemoteBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error) {
    console.error(`[remote] ${this.props.name} failed:`, error);
  }

  private retry = () => {
    this.setState({ failed: false });
    this.props.onRetry();
  };

  override render() {
    return this.state.failed ? this.props.fallback(this.retry) : this.props.children;
  }
}
