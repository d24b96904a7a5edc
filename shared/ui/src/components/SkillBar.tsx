export interface SkillBarProps {
  label: string;
  /** Percent, 0 to 100. */
  value: number;
}

/** A labelled proficiency bar. The figure is text; the bar itself is decoration. */
export function SkillBar({ label, value }: SkillBarProps) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <div className="skill">
      <p className="skill__label">
        <span>{label}</span>
        <span className="skill__value">{clamped}%</span>
      </p>
      <div className="skill__track" aria-hidden="true">
        <div className="skill__fill" style={{ width: `${clamped}%` }} />
      </div>
    </div>
  );
}

export function SkillBars({ items }: { items: readonly SkillBarProps[] }) {
  return (
    <div className="skills">
      {items.map((item) => (
        <SkillBar key={item.label} {...item} />
      ))}
    </div>
  );
}
