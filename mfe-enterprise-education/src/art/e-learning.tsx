import { Art, Device } from '@site/ui';

/** e-Learning: an interactive eBook on a tablet, with its video, a highlighted line and read-aloud. */
export function ELearningArt() {
  return (
    <Art>
      <Device x={70} y={50} w={280} h={260}>
        <rect className="art__sky" x="100" y="86" width="220" height="96" rx="8" opacity="0.85" />
        <path className="art__panel" d="M196 112v44l36-22z" />
        <path className="art__text" d="M100 206h200M100 222h170M100 254h190M100 270h120" />
        <rect className="art__accent" x="96" y="232" width="150" height="12" rx="3" opacity="0.9" />
      </Device>
      <circle className="art__panel" cx="396" cy="120" r="40" />
      <path className="art__stroke-sky" d="M380 110h8l14-12v44l-14-12h-8z" />
      <path className="art__stroke-accent" d="M414 108a16 16 0 0 1 0 24" />
      <rect className="art__panel" x="360" y="206" width="80" height="90" rx="10" />
      <path className="art__stroke-accent" d="M376 234l8 8 14-14" />
      <path className="art__text" d="M376 266h48M376 282h30" />
    </Art>
  );
}
