import type { Paragraphs } from '../content-types';

export function Prose({ paragraphs, className }: { paragraphs: Paragraphs; className?: string }) {
  return (
    <div className={className ? `prose ${className}` : 'prose'}>
      {paragraphs.map((p) => (
        <p key={p}>{p}</p>
      ))}
    </div>
  );
}
