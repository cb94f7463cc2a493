// web/src/components/boundary.tsx — keeps one broken part from taking the page down: a render
// error (a malformed answer, a bug) below it shows `fallback` in its place; the rest still works.
import { Component, type ComponentChildren } from 'preact';

interface Props {
  fallback: (retry: () => void) => ComponentChildren;
  children: ComponentChildren;
}

export class Boundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    // Left in the console for whoever debugs it; the reader sees the fallback.
    console.warn('[boundary]', error);
  }

  render() {
    return this.state.failed ? this.props.fallback(() => this.setState({ failed: false })) : this.props.children;
  }
}
