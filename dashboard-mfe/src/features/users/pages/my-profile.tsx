import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import { MESSAGES, PHONE_CHARACTERS, type ProfileFields } from '@motoparts/contracts';
import { errorMessage, selectSessionUser, useAppSelector } from '@motoparts/state';
import { LoadError, Loading } from '../../../components/status';
import { ProfileIdentity } from '../components/profile-identity';
import { useGetProfileQuery, useUpdateProfileMutation } from '../api';
import { profileFormSchema, type ProfileFormValues } from '../schema';

const FIELDS = [
  {
    name: 'education',
    label: 'Education',
    type: 'text',
    autoComplete: 'off',
    hint: 'e.g. BSc Mechanical Engineering',
  },
  {
    name: 'location',
    label: 'Location',
    type: 'text',
    autoComplete: 'address-level2',
    hint: 'City, country',
  },
  {
    name: 'phone',
    label: 'Phone',
    type: 'tel',
    autoComplete: 'tel',
    hint: PHONE_CHARACTERS.charAt(0).toUpperCase() + PHONE_CHARACTERS.slice(1),
  },
  {
    name: 'linkedin',
    label: 'LinkedIn profile',
    type: 'url',
    autoComplete: 'url',
    hint: 'https://www.linkedin.com/in/…',
  },
] as const;

/** docs/product.md: the dashboard index; name and email, and the editable profile fields. */
export default function MyProfile() {
  const user = useAppSelector(selectSessionUser);
  const email = user?.email ?? '';
  const profile = useGetProfileQuery(email, { skip: !email });
  const [save, saving] = useUpdateProfileMutation();
  const form = useForm<ProfileFormValues, unknown, ProfileFields>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: { education: '', location: '', phone: '', linkedin: '' },
  });
  const { register, handleSubmit, reset, formState } = form;

  // The form shows what is stored; it is filled once the profile arrives (and after each save).
  useEffect(() => {
    if (profile.data) {
      const { education, location, phone, linkedin } = profile.data;
      reset({ education, location, phone, linkedin });
    }
  }, [profile.data, reset]);

  const onSubmit = handleSubmit(async (fields) => {
    try {
      await save({ email, fields }).unwrap();
      toast.success(MESSAGES.profileUpdated);
    } catch (err) {
      toast.error(errorMessage(err, 'Your profile could not be saved. Please try again.'));
    }
  });

  const name = user?.displayName || profile.data?.name || 'Not set';

  return (
    <section aria-labelledby="my-profile-title">
      <ProfileIdentity
        name={<span data-testid="profile-name">{name}</span>}
        email={<span data-testid="profile-email">{email}</span>}
      />
      {profile.isLoading && <Loading what="your profile" />}
      {profile.isError && (
        <LoadError error={profile.error} what="your profile" onRetry={() => void profile.refetch()} />
      )}
      {profile.data && (
        <form className="card dash-form" onSubmit={onSubmit} noValidate aria-label="Edit profile">
          {FIELDS.map((field) => {
            const error = formState.errors[field.name]?.message;
            const id = `profile-${field.name}`;
            return (
              <div className="form-field" key={field.name}>
                <label htmlFor={id}>{field.label}</label>
                <input
                  id={id}
                  type={field.type}
                  autoComplete={field.autoComplete}
                  placeholder={field.hint}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  {...register(field.name)}
                />
                {error && (
                  <p className="field-error" id={`${id}-error`}>
                    {error}
                  </p>
                )}
              </div>
            );
          })}
          <button type="submit" className="btn" disabled={saving.isLoading}>
            {saving.isLoading ? 'Saving...' : 'Update profile'}
          </button>
        </form>
      )}
    </section>
  );
}
