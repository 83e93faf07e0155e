/** A drawn motorcycle: inline SVG, so the hero paints without waiting for an image request. */
export function HeroArt() {
  return (
    <svg viewBox="0 0 420 300" aria-hidden="true" focusable="false">
      <circle cx="210" cy="150" r="138" fill="rgba(255,255,255,0.05)" />
      <circle cx="210" cy="150" r="104" fill="rgba(255,255,255,0.04)" />
      <g fill="none" stroke="#e9eaeb" strokeWidth="10">
        <circle cx="108" cy="208" r="52" />
        <circle cx="312" cy="208" r="52" />
      </g>
      <g fill="none" stroke="#8a8f94" strokeWidth="3">
        <circle cx="108" cy="208" r="36" />
        <circle cx="312" cy="208" r="36" />
      </g>
      <circle cx="108" cy="208" r="9" fill="#e9eaeb" />
      <circle cx="312" cy="208" r="9" fill="#e9eaeb" />
      <path
        d="M108 208 L170 150 L238 150 L312 208"
        fill="none"
        stroke="#c9ccd0"
        strokeWidth="9"
        strokeLinecap="round"
      />
      <path d="M150 150 Q170 108 222 110 L262 112 Q280 114 284 134 L288 150 Z" fill="#b3261e" />
      <path d="M168 150 L238 150 L250 190 L186 190 Z" fill="#3d4450" />
      <rect x="192" y="156" width="40" height="26" rx="4" fill="#5c6470" />
      <path d="M118 128 Q140 118 176 122 L168 138 Q136 136 118 142 Z" fill="#23272d" />
      <path d="M276 112 L300 82 L318 84" fill="none" stroke="#e9eaeb" strokeWidth="7" strokeLinecap="round" />
      <path
        d="M296 98 L322 122 L312 208"
        fill="none"
        stroke="#c9ccd0"
        strokeWidth="8"
        strokeLinecap="round"
      />
      <circle cx="326" cy="112" r="10" fill="#ffd166" />
      <path d="M186 190 L140 196" stroke="#8a8f94" strokeWidth="6" strokeLinecap="round" />
    </svg>
  );
}
