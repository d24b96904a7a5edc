import type { ReactNode } from 'react';

export function Container({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  return <div className={narrow ? 'container container--narrow' : 'container'}>{children}</div>;
}
