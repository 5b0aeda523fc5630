import { TemplateResolveError } from "../errors.js";
import type { CfnTemplate } from "../stack/cfnTemplate.js";
import { AccessDeniedException } from "./AccessDeniedException.js";
import { DeployedNames, type LocalResourceNames } from "./DeployedNames.js";
import { type IamRequest, iamRequestsOf } from "./iamRequestsOf.js";
import { type DeployTarget, deployTargetOf, TemplateResolver } from "./TemplateResolver.js";
import { type TemplateFunction, type TemplateFunctionName, templateFunctionOf } from "./templateFunctions.js";

/** One request put to the evaluator: what IAM evaluates, and the function whose role makes it. */
export interface IamAuthorizationRequest extends IamRequest {
  function: TemplateFunction;
}

/** The evaluator's answer. */
export interface IamDecision {
  allowed: boolean;
  /** An explicit Deny matched (the refusal says so). Default false. */
  explicitDeny?: boolean;
  /** The role's statement that names the action but missed (its resource, or its condition). */
  nearMiss?: Record<string, unknown>;
  /** What the evaluator refused in the request itself (an action or resource it does not know). */
  errors?: string[];
}

/**
 * Decides a request as IAM would for the function's role in the template. The local stack ships
 * none: the rehearsal supplies one (`lab/rehearsal/templateAuthorizer.ts`, on an evaluator that
 * is a development dependency).
 */
export interface IamAuthorizer {
  authorize(request: IamAuthorizationRequest): Promise<IamDecision> | IamDecision;
}

/** IAM enforced on the local stack (`StartLocalStackOptions.iam`). */
export interface LocalIamOptions {
  /**
   * The template whose roles authorize each call and whose names form the ARNs (the stack is built
   * from it too unless `plan` is given).
   */
  template: CfnTemplate;
  /** Where the template is imagined deployed. Default `deployTargetOf("Decisions")` (account 111122223333, us-east-1). */
  target?: DeployTarget;
  authorizer: IamAuthorizer;
  /**
   * More local names and the template's resources they stand for, over the stack's own (a caller's
   * own parts: the rehearsal's front door and its idempotency table). Default none.
   */
  names?: Partial<LocalResourceNames>;
}

/** A refused call as the ledger keeps it: once per function, action and resource, with how often. */
export interface ObservedDenial {
  function: TemplateFunctionName;
  action: string;
  resource: string;
  near_miss?: Record<string, unknown>;
  errors?: string[];
  /** How many times it was refused. */
  count: number;
}

/** What the running functions called: allowed calls per function and action, and the refused ones. */
export interface IamCallsSnapshot {
  allowed: Partial<Record<TemplateFunctionName, Record<string, number>>>;
  /**
   * The resources of the allowed calls per function and action, each once; an S3 object's ARN cut
   * after the first `/` of its key (`arn:aws:s3:::<bucket>/review-states/*`): one entry per prefix.
   */
  resources: Partial<Record<TemplateFunctionName, Record<string, string[]>>>;
  denied: ObservedDenial[];
}

/** A resource as the ledger keeps it: an S3 object's ARN cut after its key's first `/`. */
export function resourceKindOf(resource: string): string {
  const object = /^(arn:[^:]+:s3:::[^/]+\/)([^/]*\/)?.*$/.exec(resource);
  return object === null ? resource : `${object[1]}${object[2] ?? ""}*`;
}

/** Counts allowed calls per function and action, and keeps each refused one. */
export class IamLedger {
  readonly #allowed = new Map<TemplateFunctionName, Map<string, number>>();
  readonly #resources = new Map<TemplateFunctionName, Map<string, Set<string>>>();
  readonly #denied = new Map<string, ObservedDenial>();

  recordAllowed(name: TemplateFunctionName, request: IamRequest): void {
    const actions = this.#allowed.get(name) ?? new Map<string, number>();
    actions.set(request.action, (actions.get(request.action) ?? 0) + 1);
    this.#allowed.set(name, actions);
    const resources = this.#resources.get(name) ?? new Map<string, Set<string>>();
    const kinds = resources.get(request.action) ?? new Set<string>();
    kinds.add(resourceKindOf(request.resource));
    resources.set(request.action, kinds);
    this.#resources.set(name, resources);
  }

  recordDenied(name: TemplateFunctionName, request: IamRequest, decision: IamDecision): void {
    const key = JSON.stringify([name, request.action, request.resource]);
    const known = this.#denied.get(key);
    if (known !== undefined) {
      known.count += 1;
      return;
    }
    this.#denied.set(key, {
      function: name,
      action: request.action,
      resource: request.resource,
      ...(decision.nearMiss === undefined ? {} : { near_miss: decision.nearMiss }),
      ...(decision.errors === undefined ? {} : { errors: decision.errors }),
      count: 1,
    });
  }

  /** A copy of what was recorded so far. */
  snapshot(): IamCallsSnapshot {
    return {
      allowed: Object.fromEntries(
        [...this.#allowed].map(([name, actions]) => [name, Object.fromEntries(actions)]),
      ),
      resources: Object.fromEntries(
        [...this.#resources].map(([name, actions]) => [
          name,
          Object.fromEntries([...actions].map(([action, kinds]) => [action, [...kinds].sort()])),
        ]),
      ),
      denied: [...this.#denied.values()].map((denial) => ({ ...denial })),
    };
  }
}

/** An AWS SDK v3 client, as far as authorization needs it: its middleware stack. */
export interface AuthorizableClient {
  middlewareStack: { add(middleware: never, options: never): void };
}

/** One function's side of {@link LocalIam}: its name, and the call that makes a client of it authorized. */
export interface FunctionIam {
  readonly name: TemplateFunctionName;
  /**
   * Adds the authorization to a client this function uses (its own: one client is one function's)
   * and returns it.
   */
  authorize<C extends AuthorizableClient>(client: C): C;
}

/** The middleware's name on a client's stack. */
const MIDDLEWARE_NAME = "localIamAuthorization";

/**
 * IAM enforced on the local stack: every call a function's clients make is turned into the
 * requests IAM evaluates for it ({@link iamRequestsOf}, with the ARNs the template's deployed names
 * give, {@link DeployedNames}), each put to the authorizer for the function's role in the
 * template; an allowed call is counted and goes on, a refused one is recorded and fails as AWS
 * fails it ({@link AccessDeniedException}) before it reaches the local service.
 */
export class LocalIam {
  readonly ledger = new IamLedger();
  readonly names: DeployedNames;
  readonly #authorizer: IamAuthorizer;
  readonly #functions = new Map<TemplateFunctionName, TemplateFunction>();

  constructor(options: LocalIamOptions, local: LocalResourceNames) {
    const resolver = new TemplateResolver(options.template, options.target ?? deployTargetOf("Decisions"));
    const more = options.names ?? {};
    this.names = new DeployedNames(resolver, {
      tables: { ...local.tables, ...more.tables },
      queues: { ...local.queues, ...more.queues },
      buckets: { ...local.buckets, ...more.buckets },
      endpoints: { ...local.endpoints, ...more.endpoints },
    });
    this.#authorizer = options.authorizer;
  }

  /**
   * The function of that name in the template.
   * @throws TemplateResolveError when the template has no such function (a call it would make does not exist on AWS).
   */
  functionOf(name: TemplateFunctionName): TemplateFunction {
    const known = this.#functions.get(name);
    if (known !== undefined) return known;
    const found = templateFunctionOf(this.names.resolver, name);
    if (found === undefined)
      throw new TemplateResolveError(`the template has no ${name} function, whose role would make its calls`);
    this.#functions.set(name, found);
    return found;
  }

  /** The function's side: what a handler context hands its factory. */
  forFunction(name: TemplateFunctionName): FunctionIam {
    this.functionOf(name);
    return { name, authorize: (client) => this.authorize(client, name) };
  }

  /**
   * Adds the authorization middleware (initialize step: once per call, before retries) to a client
   * the function uses, and returns the client.
   */
  authorize<C extends AuthorizableClient>(client: C, name: TemplateFunctionName): C {
    const fn = this.functionOf(name);
    const middleware =
      (
        next: (args: { input: unknown }) => Promise<unknown>,
        context: { clientName?: string; commandName?: string },
      ) =>
      async (args: { input: unknown }): Promise<unknown> => {
        const call = {
          clientName: context.clientName ?? "",
          commandName: context.commandName ?? "",
          input: (args.input ?? {}) as Record<string, unknown>,
        };
        const requests = iamRequestsOf(call, this.names);
        // In order, as AWS refuses a call at its first request denied; counted once all are allowed.
        for (const request of requests) {
          const decision = await this.#authorizer.authorize({ ...request, function: fn });
          if (decision.allowed) continue;
          this.ledger.recordDenied(name, request, decision);
          throw new AccessDeniedException(request.action.split(":")[0] ?? "", {
            principal: fn.sessionArn,
            action: request.action,
            resource: request.resource,
            ...(decision.explicitDeny === true ? { explicitDeny: true } : {}),
          });
        }
        for (const request of requests) this.ledger.recordAllowed(name, request);
        return next(args);
      };
    (client.middlewareStack as { add(middleware: unknown, options: unknown): void }).add(middleware, {
      step: "initialize",
      name: MIDDLEWARE_NAME,
      override: true,
    });
    return client;
  }
}
