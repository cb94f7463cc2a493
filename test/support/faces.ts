// test/support/faces.ts — list items without the faces every list now carries (name and avatar),
// for tests about which entries a list shows; the faces themselves are asserted where they matter.
export const withoutFaces = <T extends { face?: unknown }>(items: T[]): Omit<T, 'face'>[] =>
  items.map(({ face: _face, ...rest }) => rest);
