import type { IamAuthorizationRequest, IamAuthorizer, IamDecision } from "../../local/iam/LocalIam.js";
import { type CfnTemplate, type DeployTarget, TemplateResolver } from "../../local/iam/TemplateResolver.js";
import { authorizeCall } from "./authorizeCalls.js";
import { policiesOf, type RolePolicy } from "./rolePolicies.js";

/**
 * The local stack's authorizer (`StartLocalStackOptions.iam.authorizer`) on a template: each
 * request is decided against the identity policies of the function's role as the template states
 * them ({@link policiesOf}), by {@link authorizeCall} (iam-simulate, a development dependency:
 * the local stack itself imports none of it). The same request is evaluated once.
 */
export function templateAuthorizer(template: CfnTemplate, target: DeployTarget): IamAuthorizer {
  const resolver = new TemplateResolver(template, target);
  const policies = new Map<string, RolePolicy[]>();
  const decisions = new Map<string, Promise<IamDecision>>();
  return {
    authorize(request: IamAuthorizationRequest): Promise<IamDecision> {
      const roleId = request.function.roleLogicalId;
      const key = JSON.stringify([roleId, request.action, request.resource, request.context]);
      const known = decisions.get(key);
      if (known !== undefined) return known;
      let rolePolicies = policies.get(roleId);
      if (rolePolicies === undefined) {
        rolePolicies = policiesOf(resolver, roleId);
        policies.set(roleId, rolePolicies);
      }
      const decision = authorizeCall(request, rolePolicies, target, resolver.physicalName(roleId));
      decisions.set(key, decision);
      return decision;
    },
  };
}
