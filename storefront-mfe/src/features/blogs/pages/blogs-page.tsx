import { ensureStorefrontStyles } from '../../../styles';
import { BlogsView } from '../components/blogs-view';

ensureStorefrontStyles();

export default function BlogsPage() {
  return <BlogsView />;
}
