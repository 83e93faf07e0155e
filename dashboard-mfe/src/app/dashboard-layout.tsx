import { NavLink, Outlet } from 'react-router-dom';
import { selectIsAdmin, useAppSelector } from '@motoparts/state';
import { MENU_TITLE, menuFor } from './access';

/** docs/product.md: the dashboard frame, a side menu by role beside the current page. */
export function DashboardLayout() {
  const isAdmin = useAppSelector(selectIsAdmin);
  const items = menuFor(isAdmin);
  return (
    <div className="page dash-layout">
      <nav className="dash-menu" aria-label="Dashboard">
        <p className="dash-menu-title">{MENU_TITLE}</p>
        <ul>
          {items.map((item) => (
            <li key={item.path}>
              <NavLink to={item.path ? `/dashboard/${item.path}` : '/dashboard'} end>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="dash-content">
        <Outlet />
      </div>
    </div>
  );
}
