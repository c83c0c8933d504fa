import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { RegisterRequest } from '@/api/generated/RegisterRequest';
import { paths } from '@/app/paths';
import { useToast } from '@/components/toast/toast-provider';
import { hasErrors, type FieldErrors } from '@/lib/validation';
import { useRegister } from '../api/register';
import { validateRegister, type RegisterField } from '../validation';

const empty: RegisterRequest = { username: '', email: '', password: '', confirmPassword: '' };

/**
 * The registration form: its fields, their errors (checked on submit, each cleared by an edit of its
 * field) and the request (with the invitation token of a /join link); a registered user goes to
 * the login page.
 */
export function useRegisterForm(invite?: string) {
  const navigate = useNavigate();
  const toast = useToast();
  const register = useRegister();
  const [form, setForm] = useState<RegisterRequest>(empty);
  const [errors, setErrors] = useState<FieldErrors<RegisterField>>({});

  const set = (field: RegisterField) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (register.isPending) return;
    const found = validateRegister(form);
    setErrors(found);
    if (hasErrors(found)) return;
    register.mutate(
      { ...form, username: form.username.trim(), email: form.email.trim(), ...(invite ? { invite } : {}) },
      {
        onSuccess: () => {
          toast.success('Registration successful. Please log in.');
          void navigate(paths.login);
        },
      },
    );
  };

  return { form, errors, set, onSubmit, register };
}
