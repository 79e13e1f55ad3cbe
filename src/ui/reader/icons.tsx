/** Small line icons as Preact SVG elements (no emoji: not every device has the font). */
function Icon({ d, label }: { d: string; label?: string }) {
  return (
    <svg
      class="rd-svg-icon"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      aria-hidden={label ? undefined : 'true'}
      role={label ? 'img' : undefined}
      aria-label={label}
    >
      <path d={d} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}

/** A magnifier. */
export const SearchIcon = () => <Icon d="M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14M21 21l-5-5" />;
/** A fork: one line splitting in two. */
export const BranchIcon = () => <Icon d="M6 3v12M18 9a3 3 0 1 0 0-6a3 3 0 1 0 0 6M6 21a3 3 0 1 0 0-6a3 3 0 1 0 0 6M18 9a9 9 0 0 1-9 9" />;
/** Sliders: the view's options. */
export const ViewIcon = () => <Icon d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M14 4v4M8 10v4M16 16v4" />;
/** A tag. */
export const TagIcon = () => <Icon d="M3 12V3h9l9 9-9 9zM7.5 7.5h.01" />;
/** A circled "i": a notice. */
export const InfoIcon = () => <Icon d="M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 11v6M12 7.5h.01" />;
/** A warning triangle: an error. */
export const AlertIcon = () => <Icon d="M12 3L2 20h20zM12 10v4.5M12 17.5h.01" />;
