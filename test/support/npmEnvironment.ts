/**
 * `environment` without the `npm_config_*` settings a process inherits when it runs under npm
 * (`npm run -s`, `npm test --json`, `npm --prefix … run`): npm reads them as its own settings, so
 * a child npm would answer differently (`npm_config_loglevel=silent` empties its log output,
 * `npm_config_prefix` moves its global folder). `npm_config_cache` stays: it holds the packages an
 * `--offline` npm reads. Names are matched case-insensitively, as npm reads them.
 *
 * @example spawnSync("npm", ["root", "-g"], { env: npmEnvironment(process.env) })
 */
export function npmEnvironment(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(environment).filter(
      ([name]) => !/^npm_config_/i.test(name) || name.toLowerCase() === "npm_config_cache",
    ),
  );
}
