import { Link } from "react-router";
import { PageHeader } from "../components/page-header.js";

/** A path the web app does not know. */
export function NotFoundScreen() {
  return (
    <>
      <PageHeader title="Page not found" description="There is nothing at this address." />
      <p>
        <Link to="/">Go to the overview</Link>
      </p>
    </>
  );
}
