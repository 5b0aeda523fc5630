import { Duration, RemovalPolicy } from "aws-cdk-lib";
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  OAuthScope,
  StandardThreatProtectionMode,
  UserPool,
  UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
  UserPoolGroup,
} from "aws-cdk-lib/aws-cognito";
import { Construct } from "constructs";

/**
 * The Cognito group whose members may use the deployed review console. The console's API refuses
 * everyone else (`core/review/reviewerOf.ts` reads the `cognito:groups` claim; a test checks the
 * two names agree).
 */
export const REVIEWERS_GROUP_NAME = "reviewers";

/** Props of {@link ReviewerPool}. */
export interface ReviewerPoolProps {
  /**
   * The Cognito domain prefix of the hosted sign-in page (`<prefix>.auth.<region>.amazoncognito.com`):
   * lowercase letters, digits and hyphens, unique in the region.
   */
  domainPrefix: string;
}

/**
 * Who may review: a Cognito user pool with self sign-up off (an administrator creates each
 * reviewer), e-mail sign-in, a strong password policy, TOTP MFA required, the Plus feature plan's
 * threat protection enforced, the {@link REVIEWERS_GROUP_NAME} group and the hosted sign-in domain.
 * The pool is kept when the stack is deleted (deletion protection on): it holds the people.
 */
export class ReviewerPool extends Construct {
  readonly userPool: UserPool;
  readonly reviewers: UserPoolGroup;
  readonly domain: UserPoolDomain;

  constructor(scope: Construct, id: string, props: ReviewerPoolProps) {
    super(scope, id);
    this.userPool = new UserPool(this, "Users", {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.PLUS,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.reviewers = new UserPoolGroup(this, "Reviewers", {
      userPool: this.userPool,
      groupName: REVIEWERS_GROUP_NAME,
      description: "May read the review queue and record reviews in the review console",
    });
    this.domain = this.userPool.addDomain("Domain", { cognitoDomain: { domainPrefix: props.domainPrefix } });
  }

  /**
   * The app client of the console's page: a public client (no secret: it runs in a browser) with
   * the authorization code flow and PKCE through the hosted sign-in page, signing in and out only
   * at `pageUrl`; no password flows of its own. ID tokens live an hour.
   */
  addPageClient(id: string, pageUrl: string): UserPoolClient {
    return new UserPoolClient(this, id, {
      userPool: this.userPool,
      generateSecret: false,
      authFlows: {
        user: false,
        userPassword: false,
        userSrp: false,
        adminUserPassword: false,
        custom: false,
      },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        callbackUrls: [pageUrl],
        logoutUrls: [pageUrl],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.hours(12),
    });
  }
}
