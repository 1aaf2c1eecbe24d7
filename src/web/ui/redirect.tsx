import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/**
 * Replaces the current address with `to`. React Router's <Navigate> does the
 * same, but it would pull code into the chunk every public page loads.
 */
export function Redirect({ to }: { to: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(to, { replace: true });
  }, [navigate, to]);
  return null;
}
