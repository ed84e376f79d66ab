import { useMcpServers } from '@mcp/react';

/** The tools of every ready server, under the names the model sees them by. */
export function ToolList() {
  const { tools } = useMcpServers();
  return (
    <section aria-labelledby="tools-heading">
      <h2 id="tools-heading">Tools</h2>
      <ul className="tools">
        {tools.map(({ name, description }) => (
          <li key={name}>
            <code>{name}</code> {description}
          </li>
        ))}
      </ul>
    </section>
  );
}
