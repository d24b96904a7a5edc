import { createContext, useContext } from 'react';
import type { NavGroup } from '../navigation';

/** The service pages by group, as the navigation shows them; the layout provides them. */
export const NavGroupsContext = createContext<readonly NavGroup[]>([]);

/** The site's service pages by group, from the deployment manifest's route tables. */
export const useNavGroups = (): readonly NavGroup[] => useContext(NavGroupsContext);
