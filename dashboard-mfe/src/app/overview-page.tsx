import Overview from '../features/overview/pages/overview';
import { RestockForm } from '../features/products/components/restock-form';

/** The Overview's Restock is Manage Products' form: one restock flow for both pages. */
export default function OverviewPage() {
  return <Overview restock={(part, onRestocked) => <RestockForm part={part} onRestocked={onRestocked} />} />;
}
