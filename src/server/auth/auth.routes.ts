import type { Feature } from '../app-context';
import { forwardRoute } from './auth-bridge';
import { changePasswordRoute } from './routes/change-password';
import { manageTwoFactorRoutes } from './routes/manage-two-factor';
import { requestPasswordResetRoute } from './routes/request-password-reset';
import { resetPasswordRoute } from './routes/reset-password';
import { signInRoute } from './routes/sign-in';
import { verifyTwoFactorRoutes } from './routes/verify-two-factor';

/**
 * better-auth's endpoints under /api/auth, public to the access layer because
 * better-auth authenticates each itself. The endpoints Coverly adds to
 * (throttling, auditing) have a route and a file of their own; every other
 * endpoint is forwarded as it is by one catch-all that accepts canonical paths
 * only. The rules that must hold whatever the spelling run inside
 * better-auth (`auth-rules.ts`). Public sign-up is off in its configuration.
 */
export const authFeature: Feature = {
  name: 'auth',
  routes: async (app, context) => {
    for (const register of [
      signInRoute,
      verifyTwoFactorRoutes,
      manageTwoFactorRoutes,
      changePasswordRoute,
      requestPasswordResetRoute,
      resetPasswordRoute,
      forwardRoute,
    ]) {
      await register(app, context);
    }
  },
};
