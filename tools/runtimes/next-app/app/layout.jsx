// Next.js requires a root layout; the runtime matrix calls app/api/upload only.
export default function Layout({ children }) {
  return (
    <html>
      <body>{children}</body>
    </html>
  );
}
