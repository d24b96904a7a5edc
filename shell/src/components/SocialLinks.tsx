import { company } from '@site/ui';

/** The company's social media profiles, as a list of links. */
export function SocialLinks({ className, label }: { className: string; label?: string }) {
  return (
    <ul className={className} aria-label={label}>
      {company.social.map((s) => (
        <li key={s.name}>
          <a href={s.url} rel="noopener noreferrer">
            {s.name}
          </a>
        </li>
      ))}
    </ul>
  );
}
