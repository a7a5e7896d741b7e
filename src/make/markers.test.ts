import { describe, expect, it } from 'vitest';
import { hasMarker, marker, readableMarkers } from './markers.js';

describe('markers', () => {
  it('keep an unknown value one inert word, and read back as the original for people', () => {
    const m = marker('shell', `awk '$1 == "version:" {print $2}' charts/x/Chart.yaml | tr -d '\\n'`);
    expect(m).not.toMatch(/[ \t\n'"$(){}|/\\]/); // NBSP inside, not an ordinary blank
    expect(hasMarker(`ghcr.io/acme/x:${m}`)).toBe(true);
    expect(readableMarkers(`ghcr.io/acme/x:${m}`)).toBe(`ghcr.io/acme/x:⟨shell awk '$1 == "version:" {print $2}' charts/x/Chart.yaml | tr -d '\\n'⟩`);
  });

  it('leaves text outside markers alone', () => {
    expect(readableMarkers('a ’quoted’ ∕ word')).toBe('a ’quoted’ ∕ word');
  });
});
