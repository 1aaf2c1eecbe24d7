import { testimonials } from '../content';
import { StarIcon } from '../../../ui/icons';
import { SectionHeading } from './section-heading';

function Stars({ rating }: { rating: number }) {
  return (
    <div role="img" aria-label={`${rating} out of 5 stars`} className="flex gap-0.5 text-amber-500">
      {Array.from({ length: 5 }, (_, index) => (
        <StarIcon key={index} className={`size-5 ${index < rating ? '' : 'text-slate-200'}`} />
      ))}
    </div>
  );
}

export function Testimonials() {
  return (
    <section aria-labelledby="testimonials-title" className="px-4 py-20 sm:px-6 sm:py-24">
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="testimonials-title" eyebrow="Testimonials" title="What brokers and investors say" />
        <ul className="mt-14 grid gap-6 lg:grid-cols-2">
          {testimonials.map((testimonial) => (
            <li key={testimonial.name}>
              <figure className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
                <Stars rating={testimonial.rating} />
                <blockquote className="mt-5 flex-1 text-lg leading-relaxed text-slate-800">
                  <p>&ldquo;{testimonial.content}&rdquo;</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-4 border-t border-slate-100 pt-6">
                  <span aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-full bg-navy-900 font-semibold text-white">
                    {testimonial.initials}
                  </span>
                  <span>
                    <span className="block font-semibold text-navy-900">{testimonial.name}</span>
                    <span className="block text-sm text-slate-600">
                      {testimonial.role}, {testimonial.company}
                    </span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
